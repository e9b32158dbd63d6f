# SPDX-License-Identifier: MIT
# plots/local.mk: one gnuplot script per figure, installed with the program.
nobase_dist_pkgdata_DATA += %reldir%/givens_fig2.gp %reldir%/givens_speedup.gp \
	%reldir%/sammon_time.gp %reldir%/sammon_speedup.gp %reldir%/sammon_block.gp \
	%reldir%/sammon_stress.gp %reldir%/sammon-embedding.gp \
	%reldir%/time_vs_size.gp %reldir%/sbo_time.gp %reldir%/speedup_vs_size.gp \
	%reldir%/block_vs_time.gp %reldir%/sbo_speedup.gp %reldir%/sbo_block.gp \
	%reldir%/log_axes.gp
# sbo-learn's figures (make sbo-figures), not records figures.
nobase_dist_pkgdata_DATA += %reldir%/sbo-rmse.gp %reldir%/sbo-atoms.gp
# The speedup of one run over another, drawn by reprobench compare --plot.
nobase_dist_pkgdata_DATA += %reldir%/compare_speedup.gp
# The roofline of a run's records under its devices' ceilings (ceilings.tsv);
# not a paper's figure, so reprobench plot leaves it to the report.
nobase_dist_pkgdata_DATA += %reldir%/roofline.gp
# A series across the runs of the results store, by reprobench history and
# report --db.
nobase_dist_pkgdata_DATA += %reldir%/history.gp
