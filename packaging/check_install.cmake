# cmake -DBUILD=<build dir> -DPREFIX=<scratch prefix> -DGUI=ON|OFF -P check_install.cmake
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD} --prefix ${PREFIX}
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cmake --install failed (${rc})")
endif()
set(expected
    bin/layerfuse-cli
    share/applications/org.layerfuse.LayerFuse.desktop
    share/metainfo/org.layerfuse.LayerFuse.metainfo.xml
    share/icons/hicolor/scalable/apps/org.layerfuse.LayerFuse.svg
    share/doc/layerfuse/README.md
    share/doc/layerfuse/file-formats.md
    share/layerfuse/examples/networks/resnet18.net.yaml
    share/layerfuse/examples/hardware/hwff-config-1.hw.yaml)
if(GUI STREQUAL "1")
    list(APPEND expected bin/layerfuse libexec/layerfuse/layerfuse-layout)
endif()
foreach(f IN LISTS expected)
    if(NOT EXISTS ${PREFIX}/${f})
        message(FATAL_ERROR "missing after install: ${f}")
    endif()
endforeach()
# The installed CLI runs on its own (examples are compiled in).
execute_process(COMMAND ${PREFIX}/bin/layerfuse-cli evaluate l2net --format csv
                RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0 OR NOT out MATCHES "^kind,name")
    message(FATAL_ERROR "installed layerfuse-cli did not run: ${rc}")
endif()
# The installed layout helper runs where the studio looks for it (bin/../libexec/layerfuse).
if(GUI STREQUAL "1")
    execute_process(COMMAND ${PREFIX}/libexec/layerfuse/layerfuse-layout --version
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out)
    if(NOT rc EQUAL 0 OR NOT out MATCHES "^Graphviz")
        message(FATAL_ERROR "installed layerfuse-layout did not run: ${rc}")
    endif()
endif()
file(REMOVE_RECURSE ${PREFIX})
