# cmake -DROOT=<source dir> -DCLANG_FORMAT=<program> -P CheckFormat.cmake
# Fails when a C++ source of the project differs from what clang-format 14 makes of it (the
# repository's .clang-format). The files: those git tracks, or without git every .cpp and .h
# under core/, views/, app/ and tests/. Exit 77 (skipped) without clang-format 14.
cmake_policy(SET CMP0007 NEW) # keep empty list elements (filtered below)
if(NOT CLANG_FORMAT)
    message("clang-format not found (scripts/install-deps.sh installs it): check skipped")
    cmake_language(EXIT 77)
endif()
execute_process(COMMAND ${CLANG_FORMAT} --version OUTPUT_VARIABLE version)
if(NOT version MATCHES "version 14\\.")
    message("${CLANG_FORMAT} is not clang-format 14 (${version}): the formatting of other "
            "versions differs, check skipped")
    cmake_language(EXIT 77)
endif()

set(files "")
if(EXISTS ${ROOT}/.git)
    execute_process(COMMAND git ls-files -- "*.cpp" "*.h"
        WORKING_DIRECTORY ${ROOT} OUTPUT_VARIABLE tracked RESULT_VARIABLE git_failed)
    if(NOT git_failed)
        string(REPLACE "\n" ";" files "${tracked}")
    endif()
endif()
if(NOT files)
    file(GLOB_RECURSE files RELATIVE ${ROOT}
        ${ROOT}/core/*.cpp ${ROOT}/core/*.h ${ROOT}/views/*.cpp ${ROOT}/views/*.h
        ${ROOT}/app/*.cpp ${ROOT}/app/*.h ${ROOT}/tests/*.cpp ${ROOT}/tests/*.h)
endif()
list(FILTER files EXCLUDE REGEX "^(examples|build)/")
list(FILTER files EXCLUDE REGEX "^$")
list(LENGTH files count)
execute_process(COMMAND ${CLANG_FORMAT} --dry-run --Werror ${files}
    WORKING_DIRECTORY ${ROOT} RESULT_VARIABLE failed)
if(failed)
    message(FATAL_ERROR "clang-format: the files above are not formatted; run "
                        "clang-format -i on them (CONTRIBUTING.md)")
endif()
message("clang-format: ${count} files formatted")
