# man pages
include man/man3/coll.mk
