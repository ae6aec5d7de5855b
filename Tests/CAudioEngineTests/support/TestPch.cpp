// The precompiled header of the C++ tests is built with this file (CMakeLists.txt: boop_test_pch).
