/* ofishmem_info: version, build configuration, libfabric providers, parameters. */
#include "ofs.h"
#include "ofs_fabric.h" /* before any <rdma/...> header */

#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Loaded as the library loads it: the same file (SHMEM_OFI_LIBRARY, or the one it was
 * built against), found or not. */
static void info_providers(void)
{
    const char *path = getenv("SHMEM_OFI_LIBRARY");
    struct fi_info *hints, *list = NULL;
    const char *seen[64];
    char err[512];
    int nseen = 0;

    if (!path || !*path)
        path = ofs_fabric_default_path();
    if (ofs_fabric_load(path, err, sizeof(err)) != 0) {
        printf("libfabric (%s):\n  not loaded: %s\n  (needed only by jobs that use the OFI "
               "route: install the Debian package %s)\n",
               path, err, OFS_FABRIC_PACKAGE);
        return;
    }
    hints = fi_allocinfo();
    if (!hints)
        return;
    hints->caps = FI_RMA;
    hints->ep_attr->type = FI_EP_RDM;
    hints->domain_attr->mr_mode =
        FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY | FI_MR_LOCAL | FI_MR_ENDPOINT;
    printf("libfabric (%s, loaded when a job needs the OFI route):\n  version %u.%u (header "
           "%u.%u)\n",
           path, FI_MAJOR(fi_version()), FI_MINOR(fi_version()), FI_MAJOR_VERSION,
           FI_MINOR_VERSION);
    if (fi_getinfo(FI_VERSION(1, 5), NULL, NULL, 0, hints, &list) != 0) {
        printf("  providers with RMA on RDM endpoints: none found\n");
    } else {
        printf("  providers with RMA on RDM endpoints:");
        for (struct fi_info *i = list; i; i = i->next) {
            const char *p = i->fabric_attr->prov_name;
            int dup = 0;
            for (int k = 0; k < nseen; k++)
                dup |= strcmp(seen[k], p) == 0;
            if (dup || nseen == 64)
                continue;
            seen[nseen++] = p;
            printf(" %s%s", p, (i->caps & FI_ATOMIC) ? "(atomics)" : "");
        }
        printf("\n");
    }
    fi_freeinfo(list);
    fi_freeinfo(hints);
}

static void info_topology(void)
{
    hwloc_topology_t topo;

    if (hwloc_topology_init(&topo) != 0 || hwloc_topology_load(topo) != 0) {
        printf("topology: unknown (hwloc failed)\n");
        return;
    }
    printf(
        "topology (hwloc %s): %d package(s), %d NUMA node(s), %d core(s), %d hardware thread(s)\n",
        HWLOC_VERSION, hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE),
        hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE),
        hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE),
        hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU));
    hwloc_topology_destroy(topo);
}

int main(int argc, char **argv)
{
    int params_only = argc > 1 && strcmp(argv[1], "--params") == 0;

    static const char usage[] =
        "usage: ofishmem_info [--params]\n"
        "Prints the version, build configuration, libfabric providers found and every\n"
        "runtime parameter (environment variable), by category, with its default and help.\n";

    if (argc > 1 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
        fputs(usage, stdout);
        return 0;
    }
    if (argc > 2 || (argc > 1 && !params_only)) {
        fprintf(stderr, "ofishmem_info: unknown argument '%s'\n%s", argv[params_only ? 2 : 1],
                usage);
        return 2;
    }
    if (!params_only) {
        printf("ofishmem %s, OpenSHMEM 1.5\n", PACKAGE_VERSION);
        printf("configure arguments: %s\n", OFS_CONFIGURE_ARGS);
#ifdef OFS_ERROR_CHECKING
        printf("argument checking: on\n");
#else
        printf("argument checking: off\n");
#endif
        info_topology();
        info_providers();
        printf("runtime parameters by category (variable, type, default, help; values "
               "accepted):\n");
    }
    ofs_env_print(stdout, NULL);
    return 0;
}
