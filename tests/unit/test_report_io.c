/*
 * Report files: atomic writing (never a partial or clobbered report), the
 * pre-flight output check, NaN as null, and defensive reading of whatever a
 * user points at. Each test gets its own directory under /tmp.
 */
#include "reports/io/report_io.h"
#include "reports/io/report_read.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[64];
static char err[512];

static void make_dir(void)
{
	snprintf(dir, sizeof dir, "/tmp/collscope-test-XXXXXX");
	cr_assert_not_null(mkdtemp(dir), "mkdtemp");
	err[0] = '\0';
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void remove_dir(void)
{
	if (dir[0])
		nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

TestSuite(report_io, .init = make_dir, .fini = remove_dir);

/* dir/name in a static buffer (one at a time is enough). */
static const char *in_dir(const char *name)
{
	static char path[256];

	snprintf(path, sizeof path, "%s/%s", dir, name);
	return path;
}

static void write_text(const char *path, const char *text, size_t len_bytes)
{
	FILE *f = fopen(path, "wb");

	cr_assert_not_null(f, "fopen %s", path);
	cr_assert_eq(fwrite(text, 1, len_bytes, f), len_bytes);
	cr_assert_eq(fclose(f), 0);
}

/* The whole file in a malloc'd buffer; *len_bytes its length. */
static char *read_text(const char *path, size_t *len_bytes)
{
	FILE *f = fopen(path, "rb");
	char *buf = malloc(1 << 16);
	size_t n;

	cr_assert_not_null(f, "fopen %s", path);
	n = fread(buf, 1, (1 << 16) - 1, f);
	buf[n] = '\0';
	fclose(f);
	*len_bytes = n;
	return buf;
}

static size_t count_entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	cr_assert_not_null(d);
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			n++;
	closedir(d);
	return n;
}

static cJSON *sample_report(double value)
{
	cJSON *root = cJSON_CreateObject();
	cJSON *arr;

	cr_assert_not_null(root);
	cJSON_AddNumberToObject(root, "schema_version", 1);
	cJSON_AddStringToObject(root, "command", "allreduce");
	report_add_number(root, "value", value);
	report_add_number(root, "undefined", NAN);
	arr = cJSON_AddArrayToObject(root, "samples_us");
	report_add_number_item(arr, 1.5);
	report_add_number_item(arr, INFINITY);
	report_add_number_item(arr, 0.1);
	return root;
}

static void assert_mentions(const char *path, const char *word)
{
	cr_assert(strstr(err, path) != NULL, "message '%s' does not name '%s'", err, path);
	if (word)
		cr_assert(strstr(err, word) != NULL, "message '%s' lacks '%s'", err, word);
}

Test(report_io, write_round_trip)
{
	const char *path = in_dir("out.json");
	cJSON *root = sample_report(3.25), *back;
	const cJSON *arr;
	char *text;
	size_t len;

	cr_assert_eq(report_write_atomic(path, root, false, err, sizeof err), REPORT_OK, "%s", err);
	cr_assert_eq(count_entries(), 1, "temporary left behind");
	text = read_text(path, &len);
	cr_assert_gt(len, 2);
	cr_assert_eq(text[len - 1], '\n', "no trailing newline");
	cr_assert_eq(text[len - 2], '}');
	cr_assert(strchr(text, '\t') != NULL, "not formatted");
	free(text);
	back = report_read(path, err, sizeof err);
	cr_assert_not_null(back, "%s", err);
	cr_assert_eq(cJSON_GetObjectItem(back, "value")->valuedouble, 3.25);
	cr_assert_str_eq(cJSON_GetObjectItem(back, "command")->valuestring, "allreduce");
	cr_assert(cJSON_IsNull(cJSON_GetObjectItem(back, "undefined")), "NAN must be null");
	arr = cJSON_GetObjectItem(back, "samples_us");
	cr_assert_eq(cJSON_GetArraySize(arr), 3);
	cr_assert_eq(cJSON_GetArrayItem(arr, 0)->valuedouble, 1.5);
	cr_assert(cJSON_IsNull(cJSON_GetArrayItem(arr, 1)), "infinity must be null");
	cr_assert_eq(cJSON_GetArrayItem(arr, 2)->valuedouble, 0.1, "doubles must round-trip");
	cJSON_Delete(back);
	cJSON_Delete(root);
}

/* A string that is not UTF-8 (a Latin-1 file name in argv) is written so that the report reads back. */
Test(report_io, invalid_utf8_is_written_as_replacement_characters)
{
	const char *path = in_dir("latin1.json");
	cJSON *root = sample_report(1.0), *back;
	cJSON *argv = cJSON_AddArrayToObject(root, "argv");
	size_t len;
	char *text;

	cJSON_AddItemToArray(argv, cJSON_CreateString("caf\xe9.json"));
	cJSON_AddItemToArray(argv, cJSON_CreateString("ok \xc3\xa9 \xf0\x9f\x98\x80 \xed\xa0\x80"));
	cJSON_AddStringToObject(root, "host\xff", "x");
	cr_assert_eq(report_write_atomic(path, root, false, err, sizeof err), REPORT_OK, "%s", err);
	text = read_text(path, &len);
	cr_assert_not_null(strstr(text, "\"caf\\ufffd.json\""), "%s", text);
	cr_assert_not_null(strstr(text, "\"ok \xc3\xa9 \xf0\x9f\x98\x80 \\ufffd\\ufffd\\ufffd\""), "%s", text);
	cr_assert_not_null(strstr(text, "\"host\\ufffd\""), "%s", text);
	free(text);
	back = report_read(path, err, sizeof err);
	cr_assert_not_null(back, "the report written cannot be read back: %s", err);
	cr_assert_str_eq(cJSON_GetArrayItem(cJSON_GetObjectItem(back, "argv"), 0)->valuestring,
	                 "caf\xef\xbf\xbd.json");
	cJSON_Delete(back);
	cJSON_Delete(root);
}

Test(report_io, nan_is_written_as_null)
{
	const char *path = in_dir("nan.json");
	cJSON *root = cJSON_CreateObject();
	char *text;
	size_t len;

	report_add_number(root, "p99_us", NAN);
	report_add_number(root, "neg", -INFINITY);
	cr_assert_eq(report_write_atomic(path, root, false, err, sizeof err), REPORT_OK, "%s", err);
	text = read_text(path, &len);
	cr_assert(strstr(text, "\"p99_us\":\tnull") != NULL, "%s", text);
	cr_assert(strstr(text, "\"neg\":\tnull") != NULL, "%s", text);
	cr_assert(strstr(text, "nan") == NULL && strstr(text, "inf") == NULL, "%s", text);
	free(text);
	cJSON_Delete(root);
}

Test(report_io, add_number_returns_item)
{
	cJSON *root = cJSON_CreateObject();
	cJSON *arr = cJSON_AddArrayToObject(root, "a");
	cJSON *item = report_add_number(root, "x", 2.0);

	cr_assert(cJSON_IsNumber(item));
	cr_assert_eq(item->valuedouble, 2.0);
	cr_assert(cJSON_IsNull(report_add_number(root, "y", NAN)));
	cr_assert(cJSON_IsNumber(report_add_number_item(arr, -0.5)));
	cr_assert(cJSON_IsNull(report_add_number_item(arr, NAN)));
	cr_assert_eq(cJSON_GetArraySize(arr), 2);
	cr_assert_null(report_add_number_item(NULL, 1.0));
	cJSON_Delete(root);
}

Test(report_io, refuses_overwrite_without_force)
{
	static const char old[] = "precious old report\n";
	const char *path = in_dir("old.json");
	cJSON *root = sample_report(1.0);
	char *text;
	size_t len;

	write_text(path, old, sizeof old - 1);
	cr_assert_eq(report_write_atomic(path, root, false, err, sizeof err), REPORT_EUSAGE);
	assert_mentions(path, "exists");
	text = read_text(path, &len);
	cr_assert_eq(len, sizeof old - 1);
	cr_assert_eq(memcmp(text, old, len), 0, "old file changed");
	cr_assert_eq(count_entries(), 1, "temporary left behind");
	free(text);
	cJSON_Delete(root);
}

Test(report_io, overwrites_with_force)
{
	const char *path = in_dir("old.json");
	cJSON *root = sample_report(7.0), *back;

	write_text(path, "old", 3);
	cr_assert_eq(report_write_atomic(path, root, true, err, sizeof err), REPORT_OK, "%s", err);
	back = report_read(path, err, sizeof err);
	cr_assert_not_null(back, "%s", err);
	cr_assert_eq(cJSON_GetObjectItem(back, "value")->valuedouble, 7.0);
	cr_assert_eq(count_entries(), 1);
	cJSON_Delete(back);
	cJSON_Delete(root);
}

Test(report_io, file_mode_follows_umask)
{
	const char *path = in_dir("mode.json");
	cJSON *root = sample_report(1.0);
	struct stat st;

	umask(022);
	cr_assert_eq(report_write_atomic(path, root, false, err, sizeof err), REPORT_OK, "%s", err);
	cr_assert_eq(stat(path, &st), 0);
	cr_assert_eq(st.st_mode & 0777, 0644, "mode %o", st.st_mode & 0777);
	cr_assert_eq(umask(022), 022, "umask not restored");
	cJSON_Delete(root);
}

/* --force keeps the mode of the file it replaces; the umask is for new files only. */
Test(report_io, force_keeps_the_mode_of_the_file_it_replaces)
{
	static const mode_t modes[] = {0600, 0640, 0444, 0664};
	const char *path = in_dir("kept.json");
	cJSON *root = sample_report(2.0);
	struct stat st;

	for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
		write_text(path, "old", 3);
		cr_assert_eq(chmod(path, modes[i]), 0);
		umask(i % 2 ? 077 : 002);
		cr_assert_eq(report_write_atomic(path, root, true, err, sizeof err), REPORT_OK, "%s",
		             err);
		cr_assert_eq(stat(path, &st), 0);
		cr_assert_eq(st.st_mode & 07777, modes[i], "mode %o, was %o",
		             (unsigned)(st.st_mode & 07777), (unsigned)modes[i]);
		cr_assert_eq(unlink(path), 0);
	}
	umask(077);
	cr_assert_eq(report_write_atomic(path, root, false, err, sizeof err), REPORT_OK, "%s", err);
	cr_assert_eq(stat(path, &st), 0);
	cr_assert_eq(st.st_mode & 0777, 0600, "a new file: 0666 minus the umask, not %o",
	             (unsigned)(st.st_mode & 0777));
	umask(022);
	cJSON_Delete(root);
}

/*
 * The unit tests' fsync: the system call, or first the signal a test asks
 * for, so that a write is interrupted at a known point: the temporary
 * written, not yet moved into place.
 */
static volatile sig_atomic_t raise_at_fsync;

int fsync(int fd)
{
	int sig = raise_at_fsync;

	if (sig) {
		raise_at_fsync = 0;
		raise(sig);
	}
	return (int)syscall(SYS_fsync, fd);
}

static volatile sig_atomic_t own_handler_ran;

static void own_handler(int sig)
{
	own_handler_ran = sig;
}

/* In a child: the write interrupted by sig at its fsync, with the disposition given. */
static int write_interrupted(const char *path, bool force, int sig, void (*disposition)(int))
{
	static const char page[] = "<p>page</p>";
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = disposition;
	sigaction(sig, &sa, NULL);
	raise_at_fsync = sig;
	return report_write_text_atomic(path, page, sizeof page - 1, force, err, sizeof err);
}

Test(report_io, a_write_killed_by_a_signal_leaves_no_temporary)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	const char *path = in_dir("page.html");
	size_t len;
	int status;

	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		for (int force = 0; force < 2; force++) {
			if (force)
				write_text(path, "old", 3);
			pid_t pid = fork();
			cr_assert_geq(pid, 0);
			if (pid == 0) {
				write_interrupted(path, force, sigs[i], SIG_DFL);
				_exit(0); /* not reached: the signal ends the child */
			}
			cr_assert_eq(waitpid(pid, &status, 0), pid);
			cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == sigs[i],
			          "signal %d: the child was not ended by it (status %#x)", sigs[i],
			          status);
			cr_assert_eq(count_entries(), (size_t)force,
			             "signal %d: a temporary was left behind", sigs[i]);
			if (force) {
				char *text = read_text(path, &len);
				cr_assert(len == 3 && memcmp(text, "old", 3) == 0,
				          "the file replaced was changed");
				free(text);
				cr_assert_eq(unlink(path), 0);
			}
		}
}

/* A handler the program had is still called, after the temporary is gone; an ignored signal stays ignored. */
Test(report_io, a_signal_takes_its_previous_course)
{
	const char *path = in_dir("page.html");
	int status;
	pid_t pid = fork();

	cr_assert_geq(pid, 0);
	if (pid == 0) {
		int rc = write_interrupted(path, false, SIGTERM, own_handler);
		_exit(rc == REPORT_EIO && own_handler_ran == SIGTERM ? 0 : 1);
	}
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	          "the program's own handler did not run, or the write did not fail (status %#x)",
	          status);
	cr_assert_eq(count_entries(), 0, "the temporary or a half report was left behind");
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0)
		_exit(write_interrupted(path, false, SIGHUP, SIG_IGN) == REPORT_OK ? 0 : 1);
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "under nohup the write completes");
	cr_assert_eq(count_entries(), 1);
}

Test(report_io, directory_as_output)
{
	char slash[300];
	cJSON *root = sample_report(1.0);

	cr_assert_eq(report_write_atomic(dir, root, false, err, sizeof err), REPORT_EUSAGE);
	assert_mentions(dir, "directory");
	cr_assert_eq(report_write_atomic(dir, root, true, err, sizeof err), REPORT_EUSAGE);
	assert_mentions(dir, "directory");
	cr_assert_eq(report_check_output_path(dir, true, err, sizeof err), REPORT_EUSAGE);
	assert_mentions(dir, "directory");
	snprintf(slash, sizeof slash, "%s/new/", dir);
	cr_assert_eq(report_write_atomic(slash, root, true, err, sizeof err), REPORT_EUSAGE);
	assert_mentions(slash, "directory");
	cr_assert_eq(count_entries(), 0);
	cJSON_Delete(root);
}

Test(report_io, missing_directory)
{
	char path[300];
	cJSON *root = sample_report(1.0);

	snprintf(path, sizeof path, "%s/no/such/out.json", dir);
	cr_assert_eq(report_write_atomic(path, root, false, err, sizeof err), REPORT_EIO);
	assert_mentions(path, "No such file");
	cr_assert_eq(report_check_output_path(path, false, err, sizeof err), REPORT_EUSAGE);
	assert_mentions(path, "No such file");
	cJSON_Delete(root);
}

Test(report_io, parent_is_a_file)
{
	char path[300];

	write_text(in_dir("file"), "x", 1);
	snprintf(path, sizeof path, "%s/file/out.json", dir);
	cr_assert_eq(report_check_output_path(path, true, err, sizeof err), REPORT_EUSAGE);
	assert_mentions(path, NULL);
}

Test(report_io, check_output_path_cases)
{
	const char *path = in_dir("a.json");

	cr_assert_eq(report_check_output_path(path, false, err, sizeof err), REPORT_OK, "%s", err);
	cr_assert_eq(count_entries(), 0, "the check must not create anything");
	write_text(path, "{}", 2);
	cr_assert_eq(report_check_output_path(path, false, err, sizeof err), REPORT_EUSAGE);
	assert_mentions(path, "exists");
	cr_assert_eq(report_check_output_path(path, true, err, sizeof err), REPORT_OK, "%s", err);
	cr_assert_eq(report_check_output_path("", true, err, sizeof err), REPORT_EUSAGE);
	cr_assert_eq(report_check_output_path(NULL, true, err, sizeof err), REPORT_EUSAGE);
	/* a bare file name means the current directory */
	cr_assert_eq(chdir(dir), 0);
	cr_assert_eq(report_check_output_path("b.json", false, err, sizeof err), REPORT_OK, "%s",
		     err);
}

Test(report_io, unwritable_directory)
{
	char path[300];

	if (geteuid() == 0) {
		remove_dir(); /* a skipped test does not run .fini */
		cr_skip_test("root may write anywhere");
	}
	snprintf(path, sizeof path, "%s/ro", dir);
	cr_assert_eq(mkdir(path, 0500), 0);
	snprintf(path, sizeof path, "%s/ro/out.json", dir);
	cr_assert_eq(report_check_output_path(path, false, err, sizeof err), REPORT_EUSAGE);
	assert_mentions(path, "not writable");
}

Test(report_io, never_replaces_a_fifo)
{
	const char *path = in_dir("fifo");
	cJSON *root = sample_report(1.0);
	struct stat st;

	cr_assert_eq(mkfifo(path, 0600), 0);
	cr_assert_eq(report_check_output_path(path, true, err, sizeof err), REPORT_EUSAGE);
	assert_mentions(path, "not a regular file");
	cr_assert_eq(report_write_atomic(path, root, true, err, sizeof err), REPORT_EUSAGE);
	cr_assert_eq(lstat(path, &st), 0);
	cr_assert(S_ISFIFO(st.st_mode));
	cr_assert_eq(count_entries(), 1);
	cJSON_Delete(root);
}

Test(report_io, dangling_symlink_counts_as_existing)
{
	const char *path = in_dir("link.json");
	cJSON *root = sample_report(1.0);
	struct stat st;

	cr_assert_eq(symlink("/nonexistent/target", path), 0);
	cr_assert_eq(report_check_output_path(path, false, err, sizeof err), REPORT_EUSAGE);
	cr_assert_eq(report_write_atomic(path, root, false, err, sizeof err), REPORT_EUSAGE);
	cr_assert_eq(lstat(path, &st), 0);
	cr_assert(S_ISLNK(st.st_mode));
	cr_assert_eq(report_write_atomic(path, root, true, err, sizeof err), REPORT_OK, "%s", err);
	cr_assert_eq(lstat(path, &st), 0);
	cr_assert(S_ISREG(st.st_mode), "force replaces the link itself");
	cJSON_Delete(root);
}

Test(report_io, small_and_null_error_buffers)
{
	char tiny[8];
	cJSON *root = sample_report(1.0);

	memset(tiny, 'x', sizeof tiny);
	cr_assert_eq(report_write_atomic(dir, root, false, tiny, sizeof tiny), REPORT_EUSAGE);
	cr_assert_eq(tiny[sizeof tiny - 1], '\0');
	cr_assert_eq(report_write_atomic(dir, root, false, NULL, 0), REPORT_EUSAGE);
	cr_assert_null(report_read(dir, NULL, 0));
	cr_assert_eq(report_write_atomic(in_dir("x.json"), NULL, false, err, sizeof err), REPORT_EIO);
	cr_assert_eq(count_entries(), 0);
	cJSON_Delete(root);
}

/* report_read on text that must be refused, with the problem named. */
static void assert_read_fails(const char *name, const char *text, size_t len_bytes,
			      const char *word)
{
	const char *path = in_dir(name);

	write_text(path, text, len_bytes);
	err[0] = '\0';
	cr_assert_null(report_read(path, err, sizeof err), "'%s' accepted", name);
	assert_mentions(path, word);
}

#define READ_FAILS(name, text, word) assert_read_fails(name, text, sizeof(text) - 1, word)

Test(report_io, read_valid_minimal)
{
	static const char doc[] = "{\"schema_version\": 1, \"command\": \"links\", \"extra\": [1]}\n";
	const char *path = in_dir("ok.json");
	cJSON *root;

	write_text(path, doc, sizeof doc - 1);
	root = report_read(path, err, sizeof err);
	cr_assert_not_null(root, "%s", err);
	cJSON_Delete(root);
}

Test(report_io, read_empty)
{
	READ_FAILS("empty.json", "", "empty");
}

Test(report_io, read_truncated)
{
	READ_FAILS("trunc.json", "{\"schema_version\": 1, \"command\": \"allreduce\", \"results\": [",
		   "truncated");
	READ_FAILS("trunc2.json", "{\"schema_version\": 1, \"comm", "truncated");
	READ_FAILS("blank.json", "  \n\n ", "truncated");
	READ_FAILS("trunc3.json", "{\"schema_version\": 1, \"command\": tr", "truncated");
	READ_FAILS("trunc4.json", "{\"schema_version\": 1, \"command\": \"a\\\"", "truncated");
}

Test(report_io, read_invalid_says_where)
{
	READ_FAILS("bad.json", "{\n  \"schema_version\": 1,\n  \"command\": x\n}\n", "line 3");
	READ_FAILS("garbage.json", "{\"schema_version\": 1, \"command\": \"a\"} trailing", "column");
	READ_FAILS("ctrl.json", "{\"schema_version\": 1, \"command\": \"a\\qb\"}", "column 36");
	READ_FAILS("nul.json", "{\"schema_version\": 1, \"command\": \"a\"}\0xx", "NUL");
}

Test(report_io, read_wrong_schema_version)
{
	READ_FAILS("v3.json", "{\"schema_version\": 3, \"command\": \"allreduce\"}",
	           "schema_version 3 is not supported (this build reads versions 1 to 2)");
	READ_FAILS("v0.json", "{\"schema_version\": 0, \"command\": \"allreduce\"}", "schema_version 0");
	READ_FAILS("vbig.json", "{\"schema_version\": 1e300, \"command\": \"a\"}", "schema_version");
}

Test(report_io, read_wrong_types)
{
	READ_FAILS("vstr.json", "{\"schema_version\": \"1\", \"command\": \"a\"}", "not an integer");
	READ_FAILS("vfrac.json", "{\"schema_version\": 1.5, \"command\": \"a\"}", "not an integer");
	READ_FAILS("vnull.json", "{\"schema_version\": null, \"command\": \"a\"}", "not an integer");
	READ_FAILS("nover.json", "{\"command\": \"a\"}", "no schema_version");
	READ_FAILS("nocmd.json", "{\"schema_version\": 1}", "no command");
	READ_FAILS("cmdnum.json", "{\"schema_version\": 1, \"command\": 5}", "not a string");
	READ_FAILS("array.json", "[{\"schema_version\": 1, \"command\": \"a\"}]", "not an object");
	READ_FAILS("number.json", "1", "not an object");
}

Test(report_io, read_deep_nesting)
{
	size_t depth = 100000;
	char *text = malloc(2 * depth + 1);

	cr_assert_not_null(text);
	memset(text, '[', depth);
	assert_read_fails("open.json", text, depth, "nested deeper");
	memset(text + depth, ']', depth);
	assert_read_fails("deep.json", text, 2 * depth, "nested deeper");
	/* within the limit it parses (and then fails the envelope check) */
	assert_read_fails("ok_depth.json", text + depth - 500, 1000, "not an object");
	READ_FAILS("str.json", "{\"a\": \"[[[[\", \"b\": }", "line 1");
	free(text);
}

Test(report_io, read_directory_and_missing)
{
	err[0] = '\0';
	cr_assert_null(report_read(dir, err, sizeof err));
	assert_mentions(dir, "directory");
	cr_assert_null(report_read(in_dir("missing.json"), err, sizeof err));
	assert_mentions(in_dir("missing.json"), "No such file");
	cr_assert_null(report_read("", err, sizeof err));
	cr_assert_null(report_read(NULL, err, sizeof err));
}

Test(report_io, read_too_large)
{
	const char *path = in_dir("huge.json");
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);

	cr_assert_geq(fd, 0);
	/* sparse: takes no space */
	cr_assert_eq(ftruncate(fd, (off_t)REPORT_READ_MAX_BYTES + 1), 0);
	close(fd);
	cr_assert_null(report_read(path, err, sizeof err));
	assert_mentions(path, "1 GiB");
}

/* Only regular files: a FIFO without a writer is refused at once, not waited on; a device, a socket too. */
Test(report_io, read_refuses_what_is_not_a_regular_file, .timeout = 60)
{
	const char *path = in_dir("pipe");
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	int sock;

	cr_assert_eq(mkfifo(path, 0600), 0);
	cr_assert_null(report_read(path, err, sizeof err));
	assert_mentions(path, "it is a FIFO (named pipe), not a regular file");
	assert_mentions(path, "give '-'");
	cr_assert_null(report_read("/dev/zero", err, sizeof err));
	assert_mentions("/dev/zero", "it is a character device, not a regular file");
	cr_assert_null(report_read("/dev/null", err, sizeof err));
	assert_mentions("/dev/null", "a character device");
	cr_assert_lt(strlen(in_dir("sock")), sizeof addr.sun_path);
	memcpy(addr.sun_path, in_dir("sock"), strlen(in_dir("sock")) + 1);
	sock = socket(AF_UNIX, SOCK_STREAM, 0);
	cr_assert_geq(sock, 0);
	cr_assert_eq(bind(sock, (struct sockaddr *)&addr, sizeof addr), 0);
	cr_assert_null(report_read(in_dir("sock"), err, sizeof err));
	assert_mentions(in_dir("sock"), "it is a socket, not a regular file");
	close(sock);
}

/* "-" is standard input, a pipe among others, bounded like a file; a NUL byte stops it at once. */
Test(report_io, read_from_standard_input, .timeout = 60)
{
	static const char doc[] = "{\"schema_version\": 1, \"command\": \"topo\"}";
	int fds[2];
	cJSON *root;

	cr_assert_eq(pipe(fds), 0);
	cr_assert_eq(write(fds[1], doc, sizeof doc - 1), (ssize_t)(sizeof doc - 1));
	close(fds[1]);
	cr_assert_eq(dup2(fds[0], STDIN_FILENO), STDIN_FILENO);
	close(fds[0]);
	root = report_read("-", err, sizeof err);
	cr_assert_not_null(root, "%s", err);
	cr_assert_str_eq(cJSON_GetObjectItem(root, "command")->valuestring, "topo");
	cJSON_Delete(root);
	/* /dev/zero as standard input: refused at its first byte, not read to 1 GiB */
	int zero = open("/dev/zero", O_RDONLY);
	cr_assert_eq(dup2(zero, STDIN_FILENO), STDIN_FILENO);
	close(zero);
	cr_assert_null(report_read("-", err, sizeof err));
	assert_mentions("'-'", "NUL byte at byte offset 0");
}

/* A page that is not JSON: written byte for byte, no newline added, never over a file without force. */
Test(report_io, text_is_written_exactly_and_safely)
{
	static const char page[] = "<!doctype html><p>a\0b</p>";
	const char *path = in_dir("page.html");
	char *text;
	size_t len;

	cr_assert_eq(report_write_text_atomic(path, page, sizeof page - 1, false, err, sizeof err),
	             REPORT_OK, "%s", err);
	text = read_text(path, &len);
	cr_assert_eq(len, sizeof page - 1);
	cr_assert_eq(memcmp(text, page, len), 0);
	free(text);
	cr_assert_eq(report_write_text_atomic(path, "x", 1, false, err, sizeof err), REPORT_EUSAGE);
	assert_mentions(path, "exists");
	text = read_text(path, &len);
	cr_assert_eq(len, sizeof page - 1, "the page was replaced without force");
	free(text);
	cr_assert_eq(report_write_text_atomic(path, "x", 1, true, err, sizeof err), REPORT_OK);
	text = read_text(path, &len);
	cr_assert(len == 1 && text[0] == 'x');
	free(text);
	cr_assert_eq(count_entries(), 1, "temporary left behind");
}
