# Installed headers.
include_HEADERS += mpp/shmem.h mpp/pshmem.h
