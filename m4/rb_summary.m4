# SPDX-License-Identifier: MIT
# RB_DO_AM_CONDITIONALS: every conditional, declared once and unconditionally.
# RB_PRINT_SUMMARY: what was found, and why each optional part is on or off.
AC_DEFUN([RB_DO_AM_CONDITIONALS], [
AM_CONDITIONAL([RB_HAVE_OPENMP], [test $rb_openmp_happy = yes])
AM_CONDITIONAL([RB_HAVE_BLAS], [test $rb_blas_happy = yes])
AM_CONDITIONAL([RB_HAVE_OPENCL], [test $rb_opencl_happy = yes])
AM_CONDITIONAL([RB_HAVE_CLBLAST], [test $rb_clblast_happy = yes])
AM_CONDITIONAL([RB_HAVE_CUDA], [test $rb_cuda_happy = yes])
AM_CONDITIONAL([RB_HAVE_CUBLAS], [test $rb_cublas_happy = yes])
AM_CONDITIONAL([RB_HAVE_HIP], [test $rb_hip_happy = yes])
AM_CONDITIONAL([RB_HIP_PLATFORM_NVIDIA], [test $rb_hip_platform = nvidia])
AM_CONDITIONAL([RB_HAVE_GNUPLOT], [test $rb_gnuplot_happy = yes])
AM_CONDITIONAL([RB_HAVE_SQLITE], [test $rb_sqlite_happy = yes])
AM_CONDITIONAL([RB_SANITIZE], [test "x$enable_sanitizers" = xyes])
AM_CONDITIONAL([RB_FUZZ], [test "x$enable_fuzz" = xyes])
rb_configure_args=`echo "$ac_configure_args" | $SED "s/'//g"`
AC_DEFINE_UNQUOTED([RB_CONFIGURE_ARGS], ["$rb_configure_args"], [configure's arguments.])
AC_DEFINE_UNQUOTED([RB_CC_VERSION], ["`$CC --version | head -n 1`"], [The C compiler.])
# The flags configure chose, for meta.json; quotes and backslashes dropped.
rb_build_cflags=$(printf '%s' "$CFLAGS $OPENMP_CFLAGS" | tr -d '"\\')
rb_build_nvccflags=$(printf '%s' "$RB_NVCC_ARCHFLAGS $NVCCFLAGS" | tr -d '"\\')
rb_build_hipflags=$(printf '%s' "$RB_HIP_COMPILE $HIPCCFLAGS" | tr -d '"\\')
AC_DEFINE_UNQUOTED([RB_BUILD_CFLAGS], ["$rb_build_cflags"], [C flags besides the warnings.])
AC_DEFINE_UNQUOTED([RB_BUILD_NVCCFLAGS], ["$rb_build_nvccflags"], [nvcc's flags.])
AC_DEFINE_UNQUOTED([RB_BUILD_HIPFLAGS], ["$rb_build_hipflags"], [The HIP compile command.])
])

AC_DEFUN([RB_PRINT_SUMMARY], [
rb_line() { printf '  %-9s %-4s %s\n' "$[]1" "$[]2" "$[]3"; }
echo
echo "reprobench $PACKAGE_VERSION configured:"
rb_line hwloc yes "$rb_hwloc_version"
rb_line jansson yes "`$PKG_CONFIG --modversion jansson`"
rb_line openmp $rb_openmp_happy "$rb_openmp_why"
rb_line blas $rb_blas_happy "$rb_blas_why"
rb_line opencl $rb_opencl_happy "$rb_opencl_why"
rb_line clblast $rb_clblast_happy "$rb_clblast_why"
rb_line cuda $rb_cuda_happy "$rb_cuda_why"
rb_line hip $rb_hip_happy "$rb_hip_why"
rb_line gnuplot $rb_gnuplot_happy "$rb_gnuplot_why"
rb_line sqlite $rb_sqlite_happy "$rb_sqlite_why"
rb_line sanitize "$enable_sanitizers" "$rb_san_why"
rb_line fuzz "$enable_fuzz" "$rb_fuzz_why"
rb_line CC "" "$CC `$CC -dumpversion`"
echo
])
