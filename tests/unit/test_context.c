/*
 * The report context's pure parts: which MPI_T control variables are kept,
 * the CPU model out of /proc/cpuinfo's text, the environment allow-list and
 * the JSON of the control variables and host facts.
 */
#include "reports/io/context.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

Test(context, cvars_kept_are_the_ones_that_choose_the_algorithm)
{
	const char *const kept[] = {"coll",
	                            "pml",
	                            "btl",
	                            "mtl",
	                            "coll_tuned_priority",
	                            "coll_han_priority",
	                            "coll_tuned_use_dynamic_rules",
	                            "coll_tuned_dynamic_rules_filename",
	                            "coll_tuned_allreduce_algorithm",
	                            "coll_tuned_allreduce_algorithm_segmentsize",
	                            "MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM"};
	const char *const dropped[] = {
	    "btl_tcp_if_include",  "mpi_yield_when_idle",  "coll_tuned_bcast_algorithm",
	    "coll_priority_table", "coll_allreduce_token", "btl_allreduce_secret_key",
	    "opal_signal"};

	for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++)
		cr_assert(report_cvar_wanted(kept[i]), "%s", kept[i]);
	for (size_t i = 0; i < sizeof dropped / sizeof dropped[0]; i++)
		cr_assert_not(report_cvar_wanted(dropped[i]), "%s", dropped[i]);
}

Test(context, cpu_model_from_cpuinfo)
{
	char buf[128];

	report_cpu_model("processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) "
	                 "Xeon(R) Gold 6248 CPU @ 2.50GHz  \nflags\t\t: fpu\n",
	                 buf, sizeof buf);
	cr_assert_str_eq(buf, "Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz");
	report_cpu_model("processor : 0\nBogoMIPS : 50.00\nuarch : ARM Neoverse-N1\n", buf,
	                 sizeof buf);
	cr_assert_str_eq(buf, "ARM Neoverse-N1");
	report_cpu_model("processor\t: 0\nmodel name\t:\n", buf, sizeof buf);
	cr_assert_str_eq(buf, "");
	report_cpu_model(NULL, buf, sizeof buf);
	cr_assert_str_eq(buf, "");
	report_cpu_model("model name : a very long name", buf, 7);
	cr_assert_str_eq(buf, "a very");
}

Test(context, this_machine_has_a_kernel)
{
	char cpu[256], kernel[256];

	report_read_system(cpu, sizeof cpu, kernel, sizeof kernel);
	cr_assert_not_null(strstr(kernel, "Linux"), "%s", kernel);
}

Test(context, environment_keeps_mpich_cvars)
{
	struct report_context c;
	char home[] = "HOME=/root", ompi[] = "OMPI_MCA_coll_tuned_priority=90",
	     mpich[] = "MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM=ring", path[] = "PATH=/bin";
	char *envp[] = {home, ompi, mpich, path, NULL};

	report_context_init(&c);
	cr_assert_eq(report_context_capture_env(&c, envp), 0);
	cr_assert_eq(c.nenv, 2);
	cr_assert_str_eq(c.env[0], "OMPI_MCA_coll_tuned_priority=90");
	cr_assert_str_eq(c.env[1], "MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM=ring");
	report_context_release(&c);
}

Test(context, json_has_cvars_and_host_facts)
{
	struct report_context c;
	struct ctx_cvar num = {"coll_tuned_allreduce_algorithm", CTX_CVAR_NUMBER, 4, false, ""};
	struct ctx_cvar flag = {"coll_tuned_use_dynamic_rules", CTX_CVAR_BOOL, 0, true, ""};
	struct ctx_cvar text = {"coll", CTX_CVAR_STRING, 0, false, "^han"};
	int ranks[] = {0};
	cJSON *root = cJSON_CreateObject(), *mpi, *cvars, *host;

	report_context_init(&c);
	cr_assert_eq(report_context_add_cvar(&c, &num), 0);
	cr_assert_eq(report_context_add_cvar(&c, &flag), 0);
	cr_assert_eq(report_context_add_cvar(&c, &text), 0);
	cr_assert_eq(report_context_add_cvar(&c, &num), 0, "a name twice is written once");
	c.nhosts = 1;
	c.hosts = calloc(1, sizeof *c.hosts);
	c.hosts[0].nranks = 1;
	c.hosts[0].ranks = malloc(sizeof ranks);
	c.hosts[0].ranks[0] = 0;
	snprintf(c.hosts[0].name, sizeof c.hosts[0].name, "vm");
	snprintf(c.hosts[0].cpu_model, sizeof c.hosts[0].cpu_model, "Test CPU");
	snprintf(c.hosts[0].kernel, sizeof c.hosts[0].kernel, "Linux 6.1 x86_64");
	cr_assert_not_null(report_context_to_json(root, &c));
	mpi = cJSON_GetObjectItem(cJSON_GetObjectItem(root, "context"), "mpi");
	cvars = cJSON_GetObjectItem(mpi, "cvars");
	cr_assert_eq(cJSON_GetArraySize(cvars), 3);
	cr_assert_eq(cJSON_GetObjectItem(cvars, "coll_tuned_allreduce_algorithm")->valuedouble, 4);
	cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(cvars, "coll_tuned_use_dynamic_rules")));
	cr_assert_str_eq(cJSON_GetObjectItem(cvars, "coll")->valuestring, "^han");
	host = cJSON_GetArrayItem(
	    cJSON_GetObjectItem(cJSON_GetObjectItem(root, "context"), "hosts"), 0);
	cr_assert_str_eq(cJSON_GetObjectItem(host, "cpu_model")->valuestring, "Test CPU");
	cr_assert_str_eq(cJSON_GetObjectItem(host, "kernel")->valuestring, "Linux 6.1 x86_64");
	cJSON_Delete(root);
	report_context_release(&c);
}
