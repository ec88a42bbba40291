# Small helpers shared by the project's CMake files.

# Warning flags for every target of ours. -Werror comes from LAYERFUSE_WERROR (on in CI).
function(layerfuse_warnings target)
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic)
    if(LAYERFUSE_WERROR)
        target_compile_options(${target} PRIVATE -Werror)
    endif()
endfunction()

# In the UBSan test build (LAYERFUSE_UBSAN), code instrumented at -O2 takes about twice as
# long to compile as at -O1, and most of the build is Qt: there the Qt layers, the programs,
# the benchmarks and the test executables compile at -O1 (the last -O wins), while the core and
# the test references (tests/support), whose speed the long tests need, keep -O2. Other
# builds are unchanged.
function(layerfuse_ubsan_light target)
    if(LAYERFUSE_UBSAN)
        target_compile_options(${target} PRIVATE -O1)
    endif()
endfunction()

# The engine's optimisation level (LAYERFUSE_CORE_OPT, top-level CMakeLists.txt) in Release
# builds but the sanitizer and fuzz ones: for the core library, and for the benchmarks, which
# instantiate its templates (the batched closed form's enumerator) and should measure them as
# the core compiles them. After the Release flags, so it wins.
function(layerfuse_engine_opt target)
    if(LAYERFUSE_CORE_OPT AND NOT LAYERFUSE_UBSAN AND NOT LAYERFUSE_SANITIZE AND NOT LAYERFUSE_FUZZ)
        target_compile_options(${target} PRIVATE $<$<CONFIG:Release>:${LAYERFUSE_CORE_OPT}>)
        # gcc 12 at -O3 warns -Wrestrict inside libstdc++'s std::string concatenation once
        # inlined (a memcpy of "9223372036854775810 or more bytes" that "may overlap"): a false
        # positive, which -Werror would turn into a failed build.
        if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
            target_compile_options(${target} PRIVATE $<$<CONFIG:Release>:-Wno-restrict>)
        endif()
    endif()
endfunction()

# Precompiled headers of a Qt Widgets library (LAYERFUSE_PCH): Qt Widgets and the headers its
# sources share, parsed once for the library instead of once per source.
function(layerfuse_qt_pch target)
    if(LAYERFUSE_PCH)
        target_precompile_headers(${target} PRIVATE <QtWidgets> <algorithm> <cmath> <functional>
            <map> <memory> <optional> <set> <string> <vector> [["models/evaluate.h"]])
    endif()
endfunction()

# layerfuse_add_test(NAME <tst_name> SOURCES <files...> LIBS <targets...> [GUI] [LABELS ...])
# One QtTest executable per unit, registered with CTest. GUI tests run offscreen.
function(layerfuse_add_test)
    cmake_parse_arguments(T "GUI" "NAME;TIMEOUT" "SOURCES;LIBS;LABELS;ENV" ${ARGN})
    add_executable(${T_NAME} ${T_SOURCES})
    target_link_libraries(${T_NAME} PRIVATE ${T_LIBS} Qt6::Test)
    target_compile_definitions(${T_NAME} PRIVATE
        LAYERFUSE_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
        LAYERFUSE_TEST_DATA_DIR="${PROJECT_SOURCE_DIR}/tests/data"
        LAYERFUSE_BINARY_DIR="${PROJECT_BINARY_DIR}")
    set_target_properties(${T_NAME} PROPERTIES AUTOMOC ON)
    layerfuse_warnings(${T_NAME})
    layerfuse_ubsan_light(${T_NAME})
    add_test(NAME ${T_NAME} COMMAND ${T_NAME})
    set(env "QT_QPA_PLATFORM=offscreen" ${T_ENV})
    if(NOT T_TIMEOUT)
        set(T_TIMEOUT 300)
    endif()
    set_tests_properties(${T_NAME} PROPERTIES ENVIRONMENT "${env}" TIMEOUT ${T_TIMEOUT})
    if(T_LABELS)
        set_tests_properties(${T_NAME} PROPERTIES LABELS "${T_LABELS}")
    endif()
endfunction()
