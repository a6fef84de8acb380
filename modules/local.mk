# Lmod modulefile: installed as $(datadir)/modulefiles/ofishmem/$(PACKAGE_VERSION).lua so
# that `module use $(datadir)/modulefiles; module load ofishmem` works.
modulefiledir = $(datadir)/modulefiles/ofishmem
EXTRA_DIST += modules/ofishmem.lua.in

install-data-local-module: modules/ofishmem.lua
	$(MKDIR_P) $(DESTDIR)$(modulefiledir)
	$(INSTALL_DATA) modules/ofishmem.lua $(DESTDIR)$(modulefiledir)/$(PACKAGE_VERSION).lua
uninstall-local-module:
	rm -f $(DESTDIR)$(modulefiledir)/$(PACKAGE_VERSION).lua
install_data_hooks += install-data-local-module
uninstall_hooks += uninstall-local-module
