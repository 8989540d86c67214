// Shared by the assembly files that put one action per lane: an 8×8
// transposition of float64s with AVX-512 (kernel_lanes_amd64.s,
// normalise_amd64.s).

// TRANSPOSE8INDICES loads the permutation indices of TRANSPOSE8
// (transposePerm) into Z28–Z31.
#define TRANSPOSE8INDICES \
	VMOVDQU64 ·transposePerm+0(SB), Z28; \
	VMOVDQU64 ·transposePerm+64(SB), Z29; \
	VMOVDQU64 ·transposePerm+128(SB), Z30; \
	VMOVDQU64 ·transposePerm+192(SB), Z31

// TRANSPOSE8 transposes an 8×8 block of float64s: row a is 8 floats at DX +
// a·S (S = R12; R11 = 3S, R9 = DX + 4S), the columns outside the mask K1
// read as 0 (and not read). Column c of the block, the eight rows' entries
// in lane order, ends in Z4, Z6, Z5, Z7, Z0, Z1, Z8, Z9 for c = 0…7
// (TRANSPOSE8REGS). Uses Z0–Z15; Z28–Z31 hold TRANSPOSE8INDICES.
#define TRANSPOSE8 \
	VMOVUPD.Z (DX), K1, Z0; \
	VMOVUPD.Z (DX)(R12*1), K1, Z1; \
	VMOVUPD.Z (DX)(R12*2), K1, Z2; \
	VMOVUPD.Z (DX)(R11*1), K1, Z3; \
	VMOVUPD.Z (R9), K1, Z4; \
	VMOVUPD.Z (R9)(R12*1), K1, Z5; \
	VMOVUPD.Z (R9)(R12*2), K1, Z6; \
	VMOVUPD.Z (R9)(R11*1), K1, Z7; \
	TRANSPOSE8REGS

// TRANSPOSE8PAIRS is TRANSPOSE8REGS's unpacks and first VPERMT2PD stage:
// from rows Z0–Z7 to Z0, Z8, Z1, Z9, Z2, Z12, Z3, Z13 (each the pairs of
// rows 0–1, 2–3 and 4–5, 6–7 of two columns' halves). Uses Z0–Z15; Z28–Z29
// hold TRANSPOSE8INDICES' first two tables.
#define TRANSPOSE8PAIRS \
	VUNPCKLPD Z1, Z0, Z8; \
	VUNPCKHPD Z1, Z0, Z9; \
	VUNPCKLPD Z3, Z2, Z10; \
	VUNPCKHPD Z3, Z2, Z11; \
	VUNPCKLPD Z5, Z4, Z12; \
	VUNPCKHPD Z5, Z4, Z13; \
	VUNPCKLPD Z7, Z6, Z14; \
	VUNPCKHPD Z7, Z6, Z15; \
	VMOVAPD Z8, Z0; \
	VPERMT2PD Z10, Z28, Z0; \
	VPERMT2PD Z10, Z29, Z8; \
	VMOVAPD Z9, Z1; \
	VPERMT2PD Z11, Z28, Z1; \
	VPERMT2PD Z11, Z29, Z9; \
	VMOVAPD Z12, Z2; \
	VPERMT2PD Z14, Z28, Z2; \
	VPERMT2PD Z14, Z29, Z12; \
	VMOVAPD Z13, Z3; \
	VPERMT2PD Z15, Z28, Z3; \
	VPERMT2PD Z15, Z29, Z13

// TRANSPOSE8REGS transposes the 8×8 block whose rows are Z0–Z7: column c
// ends in Z4, Z6, Z5, Z7, Z0, Z1, Z8, Z9 for c = 0…7. Unpacks pair the rows
// (lanes 2i, 2i+1 from rows 2p, 2p+1), then VPERMT2PD (index bit 3 picks the
// second table) gathers four rows' halves, then eight rows. Uses Z0–Z15;
// Z28–Z31 hold TRANSPOSE8INDICES.
#define TRANSPOSE8REGS \
	TRANSPOSE8PAIRS; \
	VMOVAPD Z0, Z4; \
	VPERMT2PD Z2, Z30, Z4; \
	VPERMT2PD Z2, Z31, Z0; \
	VMOVAPD Z8, Z5; \
	VPERMT2PD Z12, Z30, Z5; \
	VPERMT2PD Z12, Z31, Z8; \
	VMOVAPD Z1, Z6; \
	VPERMT2PD Z3, Z30, Z6; \
	VPERMT2PD Z3, Z31, Z1; \
	VMOVAPD Z9, Z7; \
	VPERMT2PD Z13, Z30, Z7; \
	VPERMT2PD Z13, Z31, Z9
