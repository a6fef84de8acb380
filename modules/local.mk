# Lmod modulefile: installed as $(datadir)/modulefiles/ofishmem/$(VERSION).lua
modulefiledir = $(datadir)/modulefiles/ofishmem
nodist_modulefile_DATA = modules/ofishmem.lua
EXTRA_DIST += modules/ofishmem.lua.in
install-data-hook-module:
	cd $(DESTDIR)$(modulefiledir) && mv -f ofishmem.lua $(VERSION).lua
install_data_hooks += install-data-hook-module
