// saxpy with a device helper that takes generic pointers.
__device__ float scale(const float *x, int i, float a) { return a * x[i]; }

__global__ void saxpy(int n, float a, const float *__restrict__ x, float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = scale(x, i, a) + y[i];
}
