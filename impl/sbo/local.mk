# SPDX-License-Identifier: MIT
# impl/sbo/local.mk: SBO dictionary learning on CPUs: the fp64 reference
# (LAPACKE for the p x p SVDs), the harness case, the serial variants, and
# the OpenMP + OpenBLAS float version.  Built only with OpenBLAS and LAPACKE.
if RB_HAVE_BLAS
librb_core_a_SOURCES += \
	%reldir%/sbo.h %reldir%/sbo_ref.c %reldir%/sbo_train.c \
	%reldir%/sbo_case.h %reldir%/sbo_case.c %reldir%/sbo_serial_table.c
if RB_HAVE_OPENMP
librb_core_a_SOURCES += %reldir%/sbo_omp.h %reldir%/sbo_omp.c %reldir%/sbo_omp_train.c \
	%reldir%/sbo_omp_table.c
endif RB_HAVE_OPENMP
endif RB_HAVE_BLAS
# The OpenCL representation pass (kernels/opencl/sbo_represent.cl): needs
# the case above, so BLAS too.
if RB_HAVE_BLAS
if RB_HAVE_OPENCL
librb_opencl_a_SOURCES += %reldir%/sbo_opencl.h %reldir%/sbo_opencl.c \
	%reldir%/sbo_opencl_run.c %reldir%/sbo_opencl_table.c
nodist_librb_opencl_a_SOURCES += kernels/opencl/sbo_represent.c
CLEANFILES += kernels/opencl/sbo_represent.c
# The training on the device (kernels/opencl/sbo_train_*.cl), its GEMMs
# through CLBlast where configure found it.
librb_opencl_a_SOURCES += %reldir%/sbo_opencl_train.h %reldir%/sbo_opencl_train.c \
	%reldir%/sbo_opencl_train_steps.c %reldir%/sbo_opencl_train_case.c
nodist_librb_opencl_a_SOURCES += kernels/opencl/sbo_train_select.c \
	kernels/opencl/sbo_train_gemm.c kernels/opencl/sbo_train_svd.c \
	kernels/opencl/sbo_train_polar.c
CLEANFILES += kernels/opencl/sbo_train_select.c kernels/opencl/sbo_train_gemm.c \
	kernels/opencl/sbo_train_svd.c kernels/opencl/sbo_train_polar.c
if RB_HAVE_CLBLAST
librb_opencl_a_SOURCES += %reldir%/sbo_opencl_train_clblast.c
else !RB_HAVE_CLBLAST
librb_opencl_a_SOURCES += %reldir%/sbo_opencl_train_noblast.c
endif !RB_HAVE_CLBLAST
endif RB_HAVE_OPENCL
endif RB_HAVE_BLAS
