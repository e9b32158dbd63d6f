# SPDX-License-Identifier: MIT
# datasets/local.mk: seeded generators and loaders.
