package simd

// LockMaxDim is the largest d ChooseLockstep scores several policies at once.
const LockMaxDim = 8
