/* SPDX-License-Identifier: MIT */
#ifndef OOMLENS_CLI_COMMANDS_H
#define OOMLENS_CLI_COMMANDS_H

/* Each subcommand: argv[0] is the command's name; returns the exit status. */

#define EXIT_FOUND 0 /* incidents found / success */
#define EXIT_NONE 1 /* ran fine, found no incident */
#define EXIT_TROUBLE 2 /* usage or I/O error */

int cmd_analyze(int argc, char **argv);
int cmd_ingest(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_rescore(int argc, char **argv);
int cmd_vmcore(int argc, char **argv);

/* The database path: the given one, else $OOMLENS_DB, else "oomlens.db". */
const char *cli_db_path(const char *given);

#endif
