// Included by every shader: one invocation per output element, 64 to a workgroup; dispatches
// of more than 65535 groups spread over y (program.go's dispatch).
layout(local_size_x = 64) in;

// Every shader's first binding: its parameters as 32-bit words (floats as their bits).
layout(std430, set = 0, binding = 0) readonly buffer Params { uint p[]; };

uint gid() { return gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 64u; }

float pf(uint i) { return uintBitsToFloat(p[i]); }
