/*
 * Atomic report writing (see report_io.h). The report appears at its path
 * complete or not at all: it is written to a temporary file in the same
 * directory (same file system, so the final move is atomic), made durable
 * with fsync, and only then moved into place; the directory is fsynced so the
 * new name survives a crash too.
 */
#include "reports/io/report_io.h"

#include "reports/io/report_read_scan.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The base name is cut to this in the temporary's name, to stay under NAME_MAX. */
#define TMP_BASE_MAX_CHARS 200

__attribute__((format(printf, 3, 4))) static void set_err(char *err, size_t errlen,
							  const char *fmt, ...)
{
	va_list ap;

	if (err && errlen > 0) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
}

/* The directory part of path ("." when there is none); the caller frees it. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}

static const char *base_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/*
 * What is at path, as far as replacing it goes. lstat, so that a dangling
 * symbolic link counts as existing (the final move would meet it); a link's
 * target is looked at only to refuse a link to a directory or a device.
 * When old is not NULL and path is a regular file, *old gets its stat (the
 * replacement keeps its mode and owner); old->st_mode is 0 otherwise.
 */
static int check_target_old(const char *path, bool force, struct stat *old, char *err,
                            size_t errlen)
{
	struct stat st;

	if (old)
		old->st_mode = 0;

	if (!path || *path == '\0') {
		set_err(err, errlen, "empty output path");
		return REPORT_EUSAGE;
	}
	if (path[strlen(path) - 1] == '/') {
		set_err(err, errlen, "output '%s' names a directory", path);
		return REPORT_EUSAGE;
	}
	if (lstat(path, &st) != 0)
		return REPORT_OK; /* absent, or the write itself reports why */
	if (S_ISLNK(st.st_mode) && stat(path, &st) != 0)
		st.st_mode = S_IFREG; /* dangling link: replaceable like a file */
	if (S_ISDIR(st.st_mode)) {
		set_err(err, errlen, "output '%s' is a directory", path);
		return REPORT_EUSAGE;
	}
	if (!force) {
		set_err(err, errlen, "output '%s' already exists (use --force to overwrite)", path);
		return REPORT_EUSAGE;
	}
	if (!S_ISREG(st.st_mode)) {
		set_err(err, errlen, "output '%s' exists and is not a regular file", path);
		return REPORT_EUSAGE;
	}
	if (old && lstat(path, old) == 0 && !S_ISREG(old->st_mode))
		old->st_mode = 0; /* a link is replaced by a new file, not by its target's mode */
	return REPORT_OK;
}

static int check_target(const char *path, bool force, char *err, size_t errlen)
{
	return check_target_old(path, force, NULL, err, errlen);
}

/*
 * The temporaries being written, for the handler of SIGINT, SIGTERM and
 * SIGHUP: it removes them, puts back the disposition it replaced and raises
 * the signal again, so the process ends (or goes on) as it would have, with
 * no ".NAME.tmp.XXXXXX" left behind. The handler calls only unlink,
 * sigaction and raise, which are async-signal-safe. A signal ignored when the
 * write starts (nohup) stays ignored. Single-threaded writers only, as the
 * umask below.
 */
#define TMP_SLOTS 4
static const int cleanup_signals[] = {SIGINT, SIGTERM, SIGHUP};
#define NSIGNALS (sizeof cleanup_signals / sizeof cleanup_signals[0])
static char tmp_paths[TMP_SLOTS][PATH_MAX];
static volatile sig_atomic_t tmp_live[TMP_SLOTS];
static struct sigaction saved_actions[NSIGNALS];
static bool handled[NSIGNALS];
static int tmp_count;

static void on_cleanup_signal(int sig)
{
	int saved_errno = errno;

	for (int i = 0; i < TMP_SLOTS; i++)
		if (tmp_live[i])
			unlink(tmp_paths[i]);
	for (size_t k = 0; k < NSIGNALS; k++)
		if (cleanup_signals[k] == sig && handled[k])
			sigaction(sig, &saved_actions[k], NULL);
	raise(sig); /* delivered when this handler returns, to the disposition put back */
	errno = saved_errno;
}

static void handlers_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_cleanup_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t k = 0; k < NSIGNALS; k++)
		sigaddset(&sa.sa_mask, cleanup_signals[k]);
	for (size_t k = 0; k < NSIGNALS; k++) {
		handled[k] = sigaction(cleanup_signals[k], NULL, &saved_actions[k]) == 0 &&
		             saved_actions[k].sa_handler != SIG_IGN;
		if (handled[k] && sigaction(cleanup_signals[k], &sa, NULL) != 0)
			handled[k] = false;
	}
}

static void handlers_restore(void)
{
	for (size_t k = 0; k < NSIGNALS; k++)
		if (handled[k])
			sigaction(cleanup_signals[k], &saved_actions[k], NULL);
}

/* The slot of tmp in the registry, or -1 (no room, or a path too long: no cleanup). */
static int tmp_register(const char *tmp)
{
	size_t len = strlen(tmp);

	if (len >= PATH_MAX)
		return -1;
	for (int i = 0; i < TMP_SLOTS; i++)
		if (!tmp_live[i]) {
			memcpy(tmp_paths[i], tmp, len + 1);
			if (tmp_count++ == 0)
				handlers_install();
			tmp_live[i] = 1;
			return i;
		}
	return -1;
}

static void tmp_unregister(int slot)
{
	if (slot < 0 || !tmp_live[slot])
		return;
	tmp_live[slot] = 0;
	if (--tmp_count == 0)
		handlers_restore();
}

int report_check_output_path(const char *path, bool force, char *err, size_t errlen)
{
	struct stat st;
	char *dir = NULL;
	int rc;

	/* '-' is standard output for the commands that write one document at the end (report,
	 * compare, trend), which check it before they get here; never a file named '-' */
	if (path && strcmp(path, "-") == 0) {
		set_err(err, errlen,
		        "'-' (standard output) is an output of report, compare and trend only; this "
		        "command writes its output to a file (atomically): give a file name");
		return REPORT_EUSAGE;
	}
	rc = check_target(path, force, err, errlen);
	if (rc != REPORT_OK)
		goto out;
	rc = REPORT_EUSAGE;
	dir = dir_of(path);
	if (!dir) {
		set_err(err, errlen, "cannot check output '%s': out of memory", path);
		goto out;
	}
	if (stat(dir, &st) != 0) {
		set_err(err, errlen, "cannot write '%s': directory '%s': %s", path, dir,
			strerror(errno));
		goto out;
	}
	if (!S_ISDIR(st.st_mode)) {
		set_err(err, errlen, "cannot write '%s': '%s' is not a directory", path, dir);
		goto out;
	}
	if (access(dir, W_OK | X_OK) != 0) {
		set_err(err, errlen, "cannot write '%s': directory '%s' is not writable: %s", path,
			dir, strerror(errno));
		goto out;
	}
	rc = REPORT_OK;
out:
	free(dir);
	return rc;
}

static int write_all(int fd, const char *buf, size_t len_bytes)
{
	while (len_bytes > 0) {
		ssize_t done = write(fd, buf, len_bytes);
		if (done < 0 && errno == EINTR)
			continue;
		if (done < 0)
			return -1;
		buf += done;
		len_bytes -= (size_t)done;
	}
	return 0;
}

/* umask can only be read by setting it: single-threaded callers only. */
static mode_t current_umask(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return mask;
}

/*
 * Fills the open temporary: mode, text, newline, fsync. 0 or -1 with errno.
 * The mode is that of the file replaced (old->st_mode not 0: its permission
 * bits, without set-id bits, and its owner and group where we may give them),
 * else 0666 minus the umask. Set before any byte is written.
 */
static int fill_tmp(int fd, const struct stat *old, const char *text, size_t len_bytes,
                    bool newline)
{
	mode_t mode = old->st_mode ? old->st_mode & 0777 : 0666 & ~current_umask();

	if (old->st_mode && (old->st_uid != geteuid() || old->st_gid != getegid()) &&
	    fchown(fd, old->st_uid, old->st_gid) != 0 && fchown(fd, (uid_t)-1, old->st_gid) != 0)
		errno = 0; /* not ours to give: the replacement is ours, with the old mode */
	if (fchmod(fd, mode) != 0)
		return -1;
	if (write_all(fd, text, len_bytes) != 0 || (newline && write_all(fd, "\n", 1) != 0))
		return -1;
	return fsync(fd);
}

/*
 * Moves the written temporary to path. Without force the move must not
 * replace anything: renameat2(RENAME_NOREPLACE) where the kernel and file
 * system have it, else link(), which fails with EEXIST, then unlink of the
 * temporary name. On success the temporary name no longer exists.
 */
static int publish(const char *tmp, const char *path, bool force, char *err, size_t errlen)
{
	if (force) {
		if (rename(tmp, path) == 0)
			return REPORT_OK;
		goto fail;
	}
#ifdef RENAME_NOREPLACE
	if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) == 0)
		return REPORT_OK;
	if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP)
		goto fail;
#endif
	if (link(tmp, path) != 0)
		goto fail;
	unlink(tmp); /* on failure only a stray hidden name remains; the report is in place */
	return REPORT_OK;
fail:
	if (errno == EEXIST) {
		set_err(err, errlen, "output '%s' already exists (use --force to overwrite)", path);
		return REPORT_EUSAGE;
	}
	if (errno == EISDIR) {
		set_err(err, errlen, "output '%s' is a directory", path);
		return REPORT_EUSAGE;
	}
	set_err(err, errlen, "cannot write '%s': %s", path, strerror(errno));
	return REPORT_EIO;
}

static int sync_dir(const char *dir, const char *path, char *err, size_t errlen)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int rc = REPORT_OK;

	/* EINVAL: the file system cannot sync a directory, nothing to do. */
	if (fd < 0 || (fsync(fd) != 0 && errno != EINVAL)) {
		set_err(err, errlen, "wrote '%s' but cannot sync directory '%s': %s", path, dir,
			strerror(errno));
		rc = REPORT_EIO;
	}
	if (fd >= 0)
		close(fd);
	return rc;
}

/* The one writer behind both public functions: text, then a newline when asked. */
static int write_atomic(const char *path, const char *text, size_t len_bytes, bool newline,
                        bool force, char *err, size_t errlen)
{
	char *dir = NULL, *tmp = NULL;
	struct stat old;
	int fd = -1, closed, slot = -1, rc = check_target_old(path, force, &old, err, errlen);
	bool tmp_exists = false;

	if (rc != REPORT_OK)
		goto out;
	rc = REPORT_EIO;
	dir = dir_of(path);
	if (dir && asprintf(&tmp, "%s/.%.*s.tmp.XXXXXX", dir, TMP_BASE_MAX_CHARS, base_of(path)) < 0)
		tmp = NULL;
	if (!tmp) {
		set_err(err, errlen, "cannot write '%s': out of memory", path);
		goto out;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		set_err(err, errlen, "cannot write '%s': cannot create a temporary file in '%s': %s",
			path, dir, strerror(errno));
		goto out;
	}
	tmp_exists = true;
	slot = tmp_register(tmp);
	if (fill_tmp(fd, &old, text, len_bytes, newline) != 0) {
		set_err(err, errlen, "cannot write '%s': %s", path, strerror(errno));
		goto out;
	}
	/* close reports delayed write errors (NFS); the descriptor is gone either way. */
	closed = close(fd);
	fd = -1;
	if (closed != 0) {
		set_err(err, errlen, "cannot write '%s': %s", path, strerror(errno));
		goto out;
	}
	rc = publish(tmp, path, force, err, errlen);
	if (rc != REPORT_OK)
		goto out;
	tmp_exists = false;
	tmp_unregister(slot);
	rc = sync_dir(dir, path, err, errlen);
out:
	if (fd >= 0)
		close(fd);
	if (tmp_exists)
		unlink(tmp);
	tmp_unregister(slot);
	free(tmp);
	free(dir);
	return rc;
}

/*
 * text (cJSON's print of a tree) with every byte that is not part of a
 * well-formed UTF-8 character replaced by the escape \ufffd, or NULL when
 * there is none (or no memory: text is then written as it is). cJSON copies
 * the bytes of strings as they are, and a command line, a host name or an
 * environment value need not be UTF-8; every byte at or above 0x80 of the
 * print is inside a string, where the escape is valid JSON. So every report
 * written is one that report_read accepts.
 */
static char *valid_utf8(const char *text, size_t *len_bytes)
{
	const unsigned char *p = (const unsigned char *)text;
	size_t len = strlen(text), bad = 0, n, out = 0;
	char *fixed;

	for (size_t i = 0; i < len; i += n ? n : 1) {
		n = report_utf8_char_bytes(p + i, len - i);
		bad += n == 0;
	}
	if (bad == 0 || !(fixed = malloc(len + bad * 5 + 1)))
		return NULL;
	for (size_t i = 0; i < len; i += n ? n : 1) {
		n = report_utf8_char_bytes(p + i, len - i);
		if (n == 0) {
			memcpy(fixed + out, "\\ufffd", 6);
			out += 6;
		} else {
			memcpy(fixed + out, text + i, n);
			out += n;
		}
	}
	fixed[out] = '\0';
	*len_bytes = out;
	return fixed;
}

int report_write_atomic(const char *path, const cJSON *root, bool force, char *err, size_t errlen)
{
	char *text = root ? cJSON_Print(root) : NULL, *fixed;
	size_t len_bytes;
	int rc;
	if (!text) {
		rc = check_target(path, force, err, errlen);
		if (rc == REPORT_OK) {
			set_err(err, errlen, "cannot write '%s': cannot format the report (out of memory)",
			        path);
			rc = REPORT_EIO;
		}
		return rc;
	}
	fixed = valid_utf8(text, &len_bytes);
	if (fixed)
		rc = write_atomic(path, fixed, len_bytes, true, force, err, errlen);
	else
		rc = write_atomic(path, text, strlen(text), true, force, err, errlen);
	free(fixed);
	cJSON_free(text);
	return rc;
}

int report_write_text_atomic(const char *path, const char *text, size_t len_bytes, bool force,
                             char *err, size_t errlen)
{
	return write_atomic(path, text, len_bytes, false, force, err, errlen);
}

cJSON *report_add_number(cJSON *parent, const char *name, double v)
{
	if (!isfinite(v))
		return cJSON_AddNullToObject(parent, name);
	return cJSON_AddNumberToObject(parent, name, v);
}

cJSON *report_add_number_item(cJSON *parent, double v)
{
	cJSON *item = isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();

	/* cJSON has no create-and-append for arrays: attach at once, free if that fails. */
	if (item && !cJSON_AddItemToArray(parent, item)) {
		cJSON_Delete(item);
		item = NULL;
	}
	return item;
}
