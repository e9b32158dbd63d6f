# SPDX-License-Identifier: MIT
# datasets/local.mk: seeded generators and loaders, and the small real data
# sets shipped with their source and licence (README.md).
librb_core_a_SOURCES += \
	%reldir%/csv.h %reldir%/csv.c %reldir%/dataset.h %reldir%/dataset.c \
	%reldir%/planted.h %reldir%/planted.c \
	%reldir%/pgm.h %reldir%/pgm.c %reldir%/patches.h %reldir%/patches.c \
	%reldir%/image_patches.h %reldir%/image_patches.c
dist_pkgdata_DATA += %reldir%/iris.csv %reldir%/digits.csv %reldir%/ascent.pgm
# Public-domain and CC0 photographs from scikit-image, converted to PGM (README.md).
dist_pkgdata_DATA += %reldir%/camera.pgm %reldir%/astronaut.pgm %reldir%/coffee.pgm \
	%reldir%/chelsea.pgm
EXTRA_DIST += %reldir%/README.md %reldir%/png2pgm.py
