/*
 * run - run one command, report its wall time and its peak memory.
 *
 *	run [-o FILE] [-e NAME=VALUE]... [--] COMMAND [ARG...]
 *
 * Forks; in the child, points standard output at FILE when -o is given
 * (created or truncated; /dev/null is fine), sets each -e variable, and
 * execs COMMAND (searched in PATH). Waits for it with wait4() and prints
 * one line on standard output:
 *
 *	wall=1.234567 maxrss_kb=5120 status=0
 *
 * wall: CLOCK_MONOTONIC seconds from just before fork() to the return of
 * wait4(). maxrss_kb: the child's own ru_maxrss as wait4() reports it (on
 * Linux in KiB: the peak resident set of that process, whatever its
 * siblings did). status: the exit status, or 128+N for a child killed by
 * signal N. The line is printed even when the command fails.
 *
 * Exit status: 0 when the command exited 0; 1 when it exited non-zero, was
 * killed or could not be executed (status 127), with a message on standard
 * error; 2 for a usage error or a failure of run itself.
 *
 * The child does nothing between fork() and exec() but open the output,
 * dup2() and putenv(), so the time measured is the command's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_ENV 16

static void usage(void)
{
	fputs("usage: run [-o FILE] [-e NAME=VALUE]... [--] COMMAND [ARG...]\n",
	      stderr);
	exit(2);
}

static double now(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts)) {
		fprintf(stderr, "run: clock_gettime: %s\n", strerror(errno));
		exit(2);
	}
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* What the command line asks for. */
struct run_args {
	const char *out; /* -o FILE, or NULL */
	char *env[MAX_ENV]; /* -e NAME=VALUE */
	int nenv;
	char **cmd; /* COMMAND [ARG...] */
};

/* The options into *a; usage() on a bad one or no COMMAND. */
static void parse_args(int argc, char **argv, struct run_args *a)
{
	int i = 1;

	while (i < argc && argv[i][0] == '-') {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			a->out = argv[i + 1];
		} else if (!strcmp(argv[i], "-e") && i + 1 < argc &&
			   strchr(argv[i + 1], '=') && a->nenv < MAX_ENV) {
			a->env[a->nenv++] = argv[i + 1];
		} else {
			usage();
		}
		i += 2;
	}
	if (i >= argc)
		usage();
	a->cmd = argv + i;
}

/*
 * Fork, and in the child exec the command with its output on fd (if not
 * -1) and its -e variables: the child's pid, or -1 if fork() failed.
 */
static pid_t start(const struct run_args *a, int fd)
{
	pid_t pid = fork();

	if (pid != 0)
		return pid;
	if (fd >= 0 && dup2(fd, STDOUT_FILENO) < 0)
		_exit(127);
	for (int k = 0; k < a->nenv; k++)
		if (putenv(a->env[k]))
			_exit(127);
	execvp(a->cmd[0], a->cmd);
	fprintf(stderr, "run: cannot run '%s': %s\n", a->cmd[0],
		strerror(errno));
	_exit(127);
}

/* The result line, and the exit status that says how the command ended. */
static int report(const struct run_args *a, int st, double wall,
		  const struct rusage *ru)
{
	int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);

	printf("wall=%.6f maxrss_kb=%ld status=%d\n", wall, ru->ru_maxrss,
	       code);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "run: cannot write the result\n");
		return 2;
	}
	if (WIFSIGNALED(st)) {
		fprintf(stderr, "run: '%s' was killed by signal %d\n",
			a->cmd[0], WTERMSIG(st));
		return 1;
	}
	if (code) {
		fprintf(stderr, "run: '%s' exited with status %d\n", a->cmd[0],
			code);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct run_args a = {0};
	int fd = -1, st;
	struct rusage ru;
	double t0, t1;
	pid_t pid;

	parse_args(argc, argv, &a);
	if (a.out) {
		fd = open(a.out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			  0644);
		if (fd < 0) {
			fprintf(stderr, "run: cannot open '%s': %s\n", a.out,
				strerror(errno));
			return 2;
		}
	}
	fflush(stdout);

	t0 = now();
	pid = start(&a, fd);
	if (pid < 0) {
		fprintf(stderr, "run: fork: %s\n", strerror(errno));
		return 2;
	}
	while (wait4(pid, &st, 0, &ru) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, "run: wait4: %s\n", strerror(errno));
			return 2;
		}
	}
	t1 = now();
	if (fd >= 0)
		close(fd);
	return report(&a, st, t1 - t0, &ru);
}
