# SC_CXX20: require a C++ compiler that accepts -std=c++20 (g++ 12 does).
AC_DEFUN([SC_CXX20], [
	AC_MSG_CHECKING([whether $CXX accepts -std=c++20])
	sc_save_CXXFLAGS=$CXXFLAGS
	CXXFLAGS="$CXXFLAGS -std=c++20"
	AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <span>
#include <concepts>]], [[std::span<int> s; return s.size() == 0 ? 0 : 1;]])],
		[AC_MSG_RESULT([yes])],
		[AC_MSG_RESULT([no]); AC_MSG_ERROR([a C++20 compiler is required (g++ >= 12)])])
	CXXFLAGS=$sc_save_CXXFLAGS
	SC_STD_CXXFLAGS="-std=c++20"
	AC_SUBST([SC_STD_CXXFLAGS])
])
