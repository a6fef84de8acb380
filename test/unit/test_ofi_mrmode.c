/* SHMEM_OFI_MR_MODE parsing and the effective registration mode: no network. */
#include "../../src/transport/ofi/ofi_internal.h"

#include <stdio.h>

#include "unit_check.h"

#define MODERN (FI_MR_VIRT_ADDR | FI_MR_PROV_KEY | FI_MR_ALLOCATED | FI_MR_LOCAL | FI_MR_ENDPOINT)

int main(void)
{
    uint64_t h = 0, f = 0;

    /* bases */
    CHECK(ofi_mr_mode_parse("auto", &h, &f) == 0 && h == MODERN && f == 0);
    CHECK(ofi_mr_mode_parse("", &h, &f) == 0 && h == MODERN && f == 0);
    CHECK(ofi_mr_mode_parse(NULL, &h, &f) == 0 && h == MODERN && f == 0);
    CHECK(ofi_mr_mode_parse("basic", &h, &f) == 0 && h == FI_MR_BASIC && f == 0);
    CHECK(ofi_mr_mode_parse("SCALABLE", &h, &f) == 0 && h == FI_MR_SCALABLE && f == 0);
    /* modifiers, with or without a base, '+' or ',' */
    CHECK(ofi_mr_mode_parse("basic+local", &h, &f) == 0 && h == FI_MR_BASIC && f == FI_MR_LOCAL);
    CHECK(ofi_mr_mode_parse("scalable+local+endpoint", &h, &f) == 0 && h == FI_MR_SCALABLE &&
          f == (FI_MR_LOCAL | FI_MR_ENDPOINT));
    CHECK(ofi_mr_mode_parse("+endpoint", &h, &f) == 0 && h == MODERN && f == FI_MR_ENDPOINT);
    CHECK(ofi_mr_mode_parse("local,auto", &h, &f) == 0 && h == MODERN && f == FI_MR_LOCAL);
    /* garbage, two bases, partial words */
    CHECK(ofi_mr_mode_parse("virt", &h, &f) != 0);
    CHECK(ofi_mr_mode_parse("basic+scalable", &h, &f) != 0);
    CHECK(ofi_mr_mode_parse("basicx", &h, &f) != 0);
    CHECK(ofi_mr_mode_parse("auto+loc", &h, &f) != 0);

    /* effective mode: legacy names expanded, forced bits added */
    CHECK(ofi_mr_mode_effective(FI_MR_BASIC, 0) ==
          (FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY));
    CHECK(ofi_mr_mode_effective(FI_MR_SCALABLE, 0) == 0);
    CHECK(ofi_mr_mode_effective(FI_MR_SCALABLE, FI_MR_LOCAL | FI_MR_ENDPOINT) ==
          (FI_MR_LOCAL | FI_MR_ENDPOINT));
    CHECK(ofi_mr_mode_effective(FI_MR_VIRT_ADDR, FI_MR_LOCAL) == (FI_MR_VIRT_ADDR | FI_MR_LOCAL));
    CHECK(ofi_mr_mode_effective(0, 0) == 0);

    if (failures)
        fprintf(stderr, "test_ofi_mrmode: %d failures\n", failures);
    else
        printf("test_ofi_mrmode: ok\n");
    return failures != 0;
}
