# SC_WITH_SLURM: --with-slurm-source=DIR names a configured Slurm source tree (its config.h
# generated) matching the installed Slurm to the micro release; plugins are built against it.
AC_DEFUN([SC_WITH_SLURM], [
	AC_ARG_WITH([slurm-source],
		[AS_HELP_STRING([--with-slurm-source=DIR],
			[configured Slurm source tree matching the installed Slurm (build-aux/fetch-slurm-source.sh fetches it)])],
		[with_slurm_tree=$withval], [with_slurm_tree=])
	AC_ARG_WITH([plugindir],
		[AS_HELP_STRING([--with-plugindir=DIR], [where to install the plugins (default: the installed Slurm's PluginDir)])],
		[plugindir=$withval], [plugindir=])
	AC_ARG_WITH([slurm-version],
		[AS_HELP_STRING([--with-slurm-version=X.Y.Z], [the Slurm release the plugins will be loaded into (default: the installed slurmctld's)])],
		[slurm_installed_version=$withval], [slurm_installed_version=])

	AS_IF([test "x$with_slurm_tree" = xno], [with_slurm_tree=])
	AS_IF([test "x$with_slurm_tree" != x], [
		AS_IF([test ! -d "$with_slurm_tree"],
			[AC_MSG_ERROR([--with-slurm-source=$with_slurm_tree: no such directory])])
		with_slurm_tree=`cd "$with_slurm_tree" && pwd`
		AS_IF([test ! -f "$with_slurm_tree/slurm/slurm.h" || test ! -f "$with_slurm_tree/src/slurmctld/slurmctld.h"],
			[AC_MSG_ERROR([--with-slurm-source=$with_slurm_tree is not a Slurm source tree (slurm/slurm.h or src/slurmctld/slurmctld.h missing)])])
		AS_IF([test ! -f "$with_slurm_tree/config.h"],
			[AC_MSG_ERROR([$with_slurm_tree has no config.h: run Slurm's ./configure there first (build-aux/fetch-slurm-source.sh does)])])

		AC_MSG_CHECKING([Slurm version of the source tree])
		slurm_tree_version=`sed -n 's/^#define SLURM_VERSION_STRING "\(.*\)"/\1/p' "$with_slurm_tree/config.h" | head -n 1`
		AS_IF([test "x$slurm_tree_version" = x],
			[AC_MSG_ERROR([cannot read SLURM_VERSION_STRING from $with_slurm_tree/config.h])])
		AC_MSG_RESULT([$slurm_tree_version])

		AC_MSG_CHECKING([Slurm version installed])
		AS_IF([test "x$slurm_installed_version" = x], [
			for sc_ctld in slurmctld /usr/sbin/slurmctld; do
				slurm_installed_version=`$sc_ctld -V 2>/dev/null | sed -n 's/^slurm[[^ ]]* \([[0-9.]]*\).*/\1/p'`
				test "x$slurm_installed_version" != x && break
			done
		])
		AS_IF([test "x$slurm_installed_version" = x], [
			AC_MSG_RESULT([none])
			AC_MSG_ERROR([Slurm itself is not installed (slurmctld -V failed): install slurmctld, or name the target release with --with-slurm-version=X.Y.Z])])
		AC_MSG_RESULT([$slurm_installed_version])
		AS_IF([test "x$slurm_installed_version" != "x$slurm_tree_version"],
			[AC_MSG_ERROR([Slurm version mismatch: the source tree $with_slurm_tree is Slurm $slurm_tree_version but the installed Slurm is $slurm_installed_version; plugins must match to the micro release (build-aux/fetch-slurm-source.sh fetches the matching tree)])])

		AS_IF([test "x$plugindir" = x], [
			AC_MSG_CHECKING([the installed Slurm's PluginDir])
			for sc_dir in /usr/lib/`$CC -print-multiarch 2>/dev/null`/slurm-wlm /usr/lib64/slurm /usr/lib/slurm /usr/local/lib/slurm; do
				AS_IF([test -f "$sc_dir/priority_basic.so"], [plugindir=$sc_dir; break])
			done
			AS_IF([test "x$plugindir" = x], [plugindir='${libdir}/slurm'])
			AC_MSG_RESULT([$plugindir])
		])
		SLURM_CPPFLAGS="-DHAVE_CONFIG_H -I$with_slurm_tree -I$with_slurm_tree/slurm"
	])
	AS_IF([test "x$plugindir" = x], [plugindir='${libdir}/slurm'])
	AC_SUBST([plugindir])
	AC_SUBST([with_slurm_tree])
	AC_SUBST([slurm_tree_version])
	AC_SUBST([SLURM_CPPFLAGS])
])
