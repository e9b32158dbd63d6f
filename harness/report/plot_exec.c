/* SPDX-License-Identifier: MIT */
/* Running one gnuplot script so that only whole figures appear: it draws
 * into a temporary directory, each figure is checked and renamed into place,
 * and "wrote" is printed after the rename.  A script that has nothing to
 * draw says so on stderr as "<name>: why", which is kept as its reason. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/records/atomic_file.h"
#include "harness/error.h"
#include "harness/report/plot.h"
#include "harness/records/results.h"

/* gnuplot's single-quoted strings take everything literally but a quote,
 * which is doubled. */
int rb_plot_quote(char *buf, size_t len, size_t *at, const char *s)
{
    for (; *s; s++) {
        if (*s == '\n' || *at + 3 >= len)
            return RB_EINVAL;
        if (*s == '\'')
            buf[(*at)++] = '\'';
        buf[(*at)++] = *s;
    }
    buf[*at] = '\0';
    return 0;
}

/* Run gnuplot; its stderr to errfd when errfd >= 0.  A file-size limit
 * kills the child (SIGXFSZ at its default, where the harness ignores it):
 * gnuplot does not check its writes and would leave a cut figure. */
static int exec_gnuplot(const char *gnuplot, const char *expr, const char *script, int errfd,
                        char *why, size_t whylen)
{
    char *const argv[] = { (char *)"gnuplot", (char *)"-e", (char *)expr,
                           (char *)script, NULL };
    int wstatus;
    pid_t pid;

    fflush(stdout);
    fflush(stderr);
    if ((pid = fork()) < 0) {
        snprintf(why, whylen, "fork: %s", strerror(errno));
        return RB_EIO;
    }
    if (pid == 0) {
        signal(SIGXFSZ, SIG_DFL);
        if (errfd >= 0)
            dup2(errfd, 2);
        execv(gnuplot, argv);
        fprintf(stderr, "reprobench: %s: %s\n", gnuplot, strerror(errno));
        _exit(127);
    }
    while (waitpid(pid, &wstatus, 0) < 0)
        if (errno != EINTR) {
            snprintf(why, whylen, "waitpid: %s", strerror(errno));
            return RB_EIO;
        }
    if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0)
        return 0;
    if (WIFSIGNALED(wstatus))
        snprintf(why, whylen, "gnuplot was killed by signal %d (%s)", WTERMSIG(wstatus),
                 strsignal(WTERMSIG(wstatus)));
    else
        snprintf(why, whylen, "gnuplot exited with status %d", WEXITSTATUS(wstatus));
    return RB_EIO;
}

int rb_plot_run_script(const char *gnuplot, const char *expr, const char *script)
{
    char why[160];
    return exec_gnuplot(gnuplot, expr, script, -1, why, sizeof why);
}

/* Whether the n bytes at p hold the text s. */
static int holds(const unsigned char *p, size_t n, const char *s)
{
    size_t l = strlen(s);
    for (size_t i = 0; i + l <= n; i++)
        if (memcmp(p + i, s, l) == 0)
            return 1;
    return 0;
}

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n >= t && strcmp(s + n - t, tail) == 0;
}

int rb_plot_figure_complete(const char *path)
{
    static const unsigned char iend[12] = { 0, 0, 0, 0, 'I', 'E', 'N', 'D',
                                            0xae, 0x42, 0x60, 0x82 };
    unsigned char tail[32];
    struct stat st;
    int fd = open(path, O_RDONLY | O_CLOEXEC), ok = 0;
    size_t n;

    if (fd < 0)
        return 0;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        n = st.st_size < (off_t)sizeof tail ? (size_t)st.st_size : sizeof tail;
        if (pread(fd, tail, n, st.st_size - (off_t)n) == (ssize_t)n) {
            if (ends_with(path, ".png"))
                ok = n >= sizeof iend && memcmp(tail + n - sizeof iend, iend, sizeof iend) == 0;
            else if (ends_with(path, ".pdf"))
                ok = holds(tail, n, "%%EOF");
            else
                ok = 1;
        }
    }
    close(fd);
    return ok;
}

int rb_plot_figure_move(const char *from, const char *to, char *err, size_t errlen)
{
    if (!rb_plot_figure_complete(from)) {
        snprintf(err, errlen, "%s: gnuplot left it incomplete; not written", to);
        return RB_EIO;
    }
    return rb_atomic_move(from, to, err, errlen);
}

/* Remove the temporary directory and whatever is left in it. */
static void remove_tmpdir(const char *dir)
{
    char path[PATH_MAX + 256];
    struct dirent *e;
    DIR *d = opendir(dir);

    while (d && (e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    if (d)
        closedir(d);
    rmdir(dir);
}

/* Move every figure the script drew from tmp into outdir, in name order;
 * their names are appended to written (may be NULL). */
static int move_figures(const char *tmp, const char *outdir, int quiet, json_t *written,
                        int *count, char *err, size_t errlen)
{
    char from[PATH_MAX + 256], to[PATH_MAX + 256];
    struct dirent **names;
    int n, status = 0;

    *count = 0;
    if ((n = scandir(tmp, &names, NULL, alphasort)) < 0) {
        snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
        return RB_EIO;
    }
    for (int i = 0; i < n; i++) {
        const char *name = names[i]->d_name;

        if (name[0] != '.' && status == 0) {
            if ((size_t)snprintf(from, sizeof from, "%s/%s", tmp, name) >= sizeof from
                || (size_t)snprintf(to, sizeof to, "%s/%s", outdir, name) >= sizeof to) {
                snprintf(err, errlen, "%s/%s: path too long", outdir, name);
                status = RB_EINVAL;
            } else if ((status = rb_plot_figure_move(from, to, err, errlen)) == 0) {
                (*count)++;
                if (written)
                    json_array_append_new(written, json_string(name));
                if (!quiet)
                    printf("wrote %s\n", to);
            }
        }
        free(names[i]);
    }
    free(names);
    return status;
}

/* Name what gnuplot was writing when it failed: the figure it left
 * incomplete in tmp, else the script. */
static void describe_failure(const char *tmp, const char *outdir, const char *script,
                             char *why, size_t whylen)
{
    char path[PATH_MAX + 256], cause[256];
    struct dirent *e;
    DIR *d = opendir(tmp);

    snprintf(cause, sizeof cause, "%s", why);
    snprintf(why, whylen, "%s on %s", cause, script);
    while (d && (e = readdir(d))) {
        if ((size_t)snprintf(path, sizeof path, "%s/%s", tmp, e->d_name) < sizeof path
            && e->d_name[0] != '.' && !rb_plot_figure_complete(path)) {
            snprintf(why, whylen, "%s/%s: %s on %s; not written", outdir, e->d_name, cause,
                     script);
            break;
        }
    }
    if (d)
        closedir(d);
}

/* The script's stderr: its first "<stem>: why" line is the reason it drew
 * nothing (without the " in <file>" the scripts end it with); every other
 * line is gnuplot's own and is passed on. */
static void sort_stderr(int fd, const char *stem, char *reason, size_t len)
{
    FILE *f = fdopen(dup(fd), "r");
    size_t sl = strlen(stem);
    char line[1024];

    reason[0] = '\0';
    if (!f)
        return;
    rewind(f);
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        int own = strncmp(line, stem, sl) == 0 && line[sl] == ':' && line[sl + 1] == ' ';

        if (own && !reason[0]) {
            char *in = strstr(line + sl + 2, " in ");
            for (char *next = in; next; next = strstr(next + 1, " in "))
                in = next;
            if (in && strchr(in + 4, '/') && ends_with(in, ".tsv"))
                *in = '\0';
            snprintf(reason, len, "%s", line + sl + 2);
        } else if (line[0]) {
            fprintf(stderr, "%s\n", line);
        }
    }
    fclose(f);
}

int rb_plot_script_into(const char *gnuplot, const char *script, const char *tsv,
                        const char *outdir, const char *extra, int quiet, json_t *written,
                        char *why, size_t whylen)
{
    char tmp[PATH_MAX + 64], errpath[PATH_MAX + 80], expr[4 * PATH_MAX + 64], stem[256];
    char reason[512];
    const char *base = strrchr(script, '/') ? strrchr(script, '/') + 1 : script;
    size_t at = 0;
    int errfd, count, status;

    snprintf(stem, sizeof stem, "%.*s", (int)(ends_with(base, ".gp") ? strlen(base) - 3
                                                                       : strlen(base)), base);
    if ((status = rb_atomic_tmpdir(outdir, stem, tmp, sizeof tmp, why, whylen)) < 0)
        return status;
    at = (size_t)snprintf(expr, sizeof expr, "in='");
    if (rb_plot_quote(expr, sizeof expr, &at, tsv) < 0
        || (at += (size_t)snprintf(expr + at, sizeof expr - at, "'; outdir='")) >= sizeof expr
        || rb_plot_quote(expr, sizeof expr, &at, tmp) < 0 || at + 8 >= sizeof expr) {
        remove_tmpdir(tmp);
        snprintf(why, whylen, "%s: a path gnuplot cannot take", outdir);
        return RB_EINVAL;
    }
    snprintf(expr + at, sizeof expr - at, "'%s%s", extra ? "; " : "", extra ? extra : "");
    snprintf(errpath, sizeof errpath, "%s/.stderr", tmp);
    errfd = open(errpath, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    status = exec_gnuplot(gnuplot, expr, script, errfd, why, whylen);
    reason[0] = '\0';
    if (errfd >= 0) {
        sort_stderr(errfd, stem, reason, sizeof reason);
        close(errfd);
    }
    if (status == RB_EIO) {
        describe_failure(tmp, outdir, base, why, whylen);
    } else if (status == 0) {
        status = move_figures(tmp, outdir, quiet, written, &count, why, whylen);
        if (status == 0 && count == 0) {
            snprintf(why, whylen, "%s", reason[0] ? reason : "the script drew nothing");
            status = RB_ESKIP;
        } else if (status == 0 && reason[0]) {
            fprintf(stderr, "%s: %s\n", stem, reason);
        }
    }
    remove_tmpdir(tmp);
    return status;
}
