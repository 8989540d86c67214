// LANEARGMAX reduces eight argmax lanes, values in Z0 and their first
// indices in Z1 (argmaxAVX512, score4SmallAVX512): the largest value M in
// every lane of Z5, then the smallest index among the lanes that hold M
// (−0 and +0 compare equal) in every lane of Z7 (2⁶⁴−1 when no lane holds
// M, i.e. M is NaN, which the callers' lanes never hold). Clobbers Z6, Z8,
// K3.
#define LANEARGMAX \
	VSHUFF64X2 $0x4e, Z0, Z0, Z5; \
	VMAXPD     Z5, Z0, Z5; \
	VSHUFF64X2 $0xb1, Z5, Z5, Z6; \
	VMAXPD     Z6, Z5, Z5; \
	VPERMILPD  $0x55, Z5, Z6; \
	VMAXPD     Z6, Z5, Z5; \
	VCMPPD     $0, Z5, Z0, K3; \
	VPTERNLOGQ $0xff, Z7, Z7, Z7; \
	VMOVDQA64  Z1, K3, Z7; \
	VSHUFI64X2 $0x4e, Z7, Z7, Z8; \
	VPMINUQ    Z8, Z7, Z7; \
	VSHUFI64X2 $0xb1, Z7, Z7, Z8; \
	VPMINUQ    Z8, Z7, Z7; \
	VPSHUFD    $0x4e, Z7, Z8; \
	VPMINUQ    Z8, Z7, Z7
