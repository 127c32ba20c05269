/*
 * The context block: the environment allow-list, and secrets under allowed
 * prefixes recorded by name only.
 */
#include "reports/io/context.h"

#include <criterion/criterion.h>
#include <string.h>

static const char *value_of(const cJSON *env, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(env, name);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

Test(context_env, environment_keeps_allowed_prefixes_and_redacts_secrets)
{
	static char env_text[][80] = {
	    "OMPI_COMM_WORLD_SIZE=4",
	    "SLURM_JOB_ID=77",
	    "COLLSCOPE_FAULT=flip:rank=1",
	    "OMPI_MCA_btl_tcp_password=hunter2",
	    "SLURM_JOB_PASSWORD=swordfish",
	    "COLLSCOPE_API_KEY=k-123",
	    "OMPI_MCA_orte_precondition_transports=31d7fa2bec889540-bd4a28161bb4d465",
	    "SLURM_Secret_Thing=s",
	    "COLLSCOPE_TOKEN=t",
	    "SLURM_CREDENTIAL_FILE=/etc/c",
	    "OMPI_MCA_passwd=p",
	    "HOME=/root",
	    "AWS_SECRET_ACCESS_KEY=never",
	    "PMIX_SERVER_URI2=x",
	};
	char *envp[sizeof env_text / sizeof env_text[0] + 1] = {NULL};
	struct report_context c;
	cJSON *root = cJSON_CreateObject();

	for (size_t i = 0; i < sizeof env_text / sizeof env_text[0]; i++)
		envp[i] = env_text[i];
	report_context_init(&c);
	cr_assert_eq(report_context_capture_env(&c, envp), 0);
	cr_assert_eq(c.nenv, 11, "the OMPI_, SLURM_ and COLLSCOPE_ variables only");
	cr_assert_not_null(report_context_to_json(root, &c));
	const cJSON *env = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(root, "context"), "environment");
	cr_assert_str_eq(value_of(env, "OMPI_COMM_WORLD_SIZE"), "4");
	cr_assert_str_eq(value_of(env, "SLURM_JOB_ID"), "77");
	cr_assert_str_eq(value_of(env, "COLLSCOPE_FAULT"), "flip:rank=1");
	static const char *const secrets[] = {
	    "OMPI_MCA_btl_tcp_password", "SLURM_JOB_PASSWORD",
	    "COLLSCOPE_API_KEY",         "OMPI_MCA_orte_precondition_transports",
	    "SLURM_Secret_Thing",        "COLLSCOPE_TOKEN",
	    "SLURM_CREDENTIAL_FILE",     "OMPI_MCA_passwd",
	};
	for (size_t i = 0; i < sizeof secrets / sizeof secrets[0]; i++)
		cr_assert_str_eq(value_of(env, secrets[i]), REPORT_ENV_REDACTED, "%s", secrets[i]);
	cr_assert_null(value_of(env, "HOME"));
	cr_assert_null(value_of(env, "AWS_SECRET_ACCESS_KEY"));
	char *text = cJSON_PrintUnformatted(root);
	cr_assert_null(strstr(text, "hunter2"));
	cr_assert_null(strstr(text, "swordfish"));
	cr_assert_null(strstr(text, "k-123"));
	cr_assert_null(strstr(text, "31d7fa2b"));
	cJSON_free(text);
	cJSON_Delete(root);
	report_context_release(&c);
}

Test(context_env, secret_names)
{
	cr_assert(report_env_is_secret("OMPI_MCA_btl_tcp_PassWord", 25));
	cr_assert(report_env_is_secret("X_KEY=v", 5));
	cr_assert_not(report_env_is_secret("X_KEY=v", 3), "only the name's bytes are read");
	cr_assert_not(report_env_is_secret("OMPI_COMM_WORLD_RANK", 20));
	cr_assert_not(report_env_is_secret("SLURM_NTASKS", 12));
}
