# SPDX-License-Identifier: MIT
# kernels/local.mk: device code only.  OpenCL sources are embedded as C strings.
EXTRA_DIST += build-aux/embed-cl.sh
# CUDA kernels: headers included by the .cu and .hip files of impl/, shipped
# whether or not CUDA is built; warps are rb_warp.cuh's (32 or 64 lanes).
EXTRA_DIST += %reldir%/cuda/givens_table.cuh %reldir%/cuda/givens_paper_forward.cuh \
	%reldir%/cuda/givens_fused_forward.cuh %reldir%/cuda/givens_paper_backward.cuh \
	%reldir%/cuda/givens_fused_backward.cuh %reldir%/cuda/givens_fused_apply.cuh \
	%reldir%/cuda/givens_slab.cuh %reldir%/cuda/givens_slab_kernels.cuh \
	%reldir%/cuda/givens_lift_table.cuh %reldir%/cuda/rb_warp.cuh
# OpenCL kernels: embedded by the .cl.c rule (the nodist_ C files are listed
# with the library that links them), shipped as sources.
EXTRA_DIST += %reldir%/opencl/givens_common.cl %reldir%/opencl/givens_paper_forward.cl \
	%reldir%/opencl/givens_paper_backward.cl %reldir%/opencl/givens_table.cl \
	%reldir%/opencl/givens_slab.cl %reldir%/opencl/givens_fused.cl \
	%reldir%/opencl/givens_apply_engine.cl %reldir%/opencl/givens_apply.cl
EXTRA_DIST += %reldir%/opencl/sammon_common.cl %reldir%/opencl/sammon_standard.cl \
	%reldir%/opencl/sammon_modified.cl %reldir%/opencl/sammon_tiled.cl
# The Sammon kernels of CUDA and HIP (what both compile), shipped as headers.
EXTRA_DIST += %reldir%/cuda/sammon_common.cuh %reldir%/cuda/sammon_standard.cuh \
	%reldir%/cuda/sammon_modified.cuh %reldir%/cuda/sammon_tiled.cuh \
	%reldir%/cuda/sammon_tiled_sym.cuh
# The roofline's ceiling kernels: FMA-bound, for every GPU backend.
EXTRA_DIST += %reldir%/cuda/rb_ceiling.cuh %reldir%/opencl/rb_ceiling.cl
# The SBO representation pass (the paper's map and reduce, and fused).
EXTRA_DIST += %reldir%/opencl/sbo_represent.cl
# The SBO representation kernels of CUDA and HIP (what both compile).
EXTRA_DIST += %reldir%/cuda/sbo_common.cuh %reldir%/cuda/sbo_paper.cuh \
	%reldir%/cuda/sbo_fused.cuh %reldir%/cuda/sbo_fused_pair.cuh
# The SBO training on the device: selection and grouping, the batched GEMM,
# the per-block Jacobi SVD and product, the Newton-Schulz polar factor.
EXTRA_DIST += %reldir%/opencl/sbo_train_select.cl %reldir%/opencl/sbo_train_gemm.cl \
	%reldir%/opencl/sbo_train_svd.cl %reldir%/opencl/sbo_train_polar.cl
# The SBO training's kernels of CUDA and HIP (what both compile).
EXTRA_DIST += %reldir%/cuda/sbo_train_select.cuh %reldir%/cuda/sbo_train_gemm.cuh \
	%reldir%/cuda/sbo_train_svd.cuh %reldir%/cuda/sbo_train_polar.cuh
# The Sammon stored form of CUDA and HIP: the distances' triangle, the
# benchmark's step and the embedding's passes.
EXTRA_DIST += %reldir%/cuda/sammon_stored.cuh %reldir%/opencl/sammon_stored.cl
# The embedding's fixed-rule step on CUDA and HIP devices, and on OpenCL.
EXTRA_DIST += %reldir%/cuda/sammon_step.cuh %reldir%/opencl/sammon_step.cl
