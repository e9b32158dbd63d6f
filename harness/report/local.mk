# SPDX-License-Identifier: MIT
# harness/report/local.mk: what is drawn and written from a run's records:
# the plots (gnuplot through a temporary directory, so that only whole
# figures appear), compare's ratios and the report.
librb_core_a_SOURCES += %reldir%/plot.h %reldir%/plot.c %reldir%/plot_exec.c
# reprobench compare: two runs' records matched by case, each ratio
# bootstrapped, printed and plotted; their energy.
librb_core_a_SOURCES += %reldir%/compare.h %reldir%/compare.c %reldir%/compare_match.c \
	%reldir%/compare_print.c %reldir%/compare_plot.c %reldir%/compare_energy.c
# reprobench report: a run's report as HTML and Markdown from one document.
librb_core_a_SOURCES += %reldir%/report.h %reldir%/report.c %reldir%/report_doc.c \
	%reldir%/report_machine.c %reldir%/report_paper.c %reldir%/report_claims.c \
	%reldir%/report_roofline.c %reldir%/report_energy.c \
	%reldir%/report_html.c %reldir%/report_md.c
