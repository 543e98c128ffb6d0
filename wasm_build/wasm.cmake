# The WebAssembly build (preset "wasm"), included from the top-level CMakeLists.txt under Emscripten.
#
#   sqrtdk.js           the module: one file with the wasm embedded (works from file://, in a Blob worker and
#                       in Node), MODULARIZE with the export name createSqrtdkModule, no new Function (CSP).
#   sqrtdk_tests.js     the Catch2 suite compiled to wasm, run under Node by ctest.

# emcc runs its JS tools with the machine's Node, which cannot see Debian's node-acorn without NODE_PATH.
set(SQRTDK_NODE_ENV ${CMAKE_COMMAND} -E env NODE_PATH=/usr/share/nodejs)
set(CMAKE_CXX_COMPILER_LAUNCHER ${SQRTDK_NODE_ENV})
set(CMAKE_CXX_LINKER_LAUNCHER ${SQRTDK_NODE_ENV})
foreach(layer ${SQRTDK_LAYER_TARGETS})
  set_target_properties(${layer} PROPERTIES CXX_COMPILER_LAUNCHER "${SQRTDK_NODE_ENV}")
endforeach()

# The glue is CommonJS; the repository's package.json says "type": "module", so mark this folder.
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/package.json "{\"type\": \"commonjs\"}\n")

set(SQRTDK_WASM_OPT -O3 -msimd128 -ffp-contract=off)
target_compile_options(sqrtdk_core_options INTERFACE ${SQRTDK_WASM_OPT})
# The layers off the training hot path (the words, the settings, the answer, the claims, the export) and the
# Embind layer are built for size: they run a few times per request, and the page ships every byte of them.
set(SQRTDK_SIZE_SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/src/wasm)
foreach(layer text settings answer claims export)
  list(APPEND SQRTDK_SIZE_SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/src/core/${layer})
endforeach()
list(TRANSFORM SQRTDK_SIZE_SOURCES APPEND "/*.cpp")
file(GLOB SQRTDK_SIZE_SOURCES CONFIGURE_DEPENDS ${SQRTDK_SIZE_SOURCES})
# (Source properties belong to a folder: the layers are defined in src/core, the exceptions core here.)
set_source_files_properties(${SQRTDK_SIZE_SOURCES} DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR}/src/core
                            PROPERTIES COMPILE_OPTIONS -Oz)

set(SQRTDK_MODULE_LINK_FLAGS
  --bind ${SQRTDK_WASM_OPT}
  -sMODULARIZE=1 -sEXPORT_NAME=createSqrtdkModule
  -sSINGLE_FILE=1
  -sENVIRONMENT=web,worker,node
  -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=32MB -sMAXIMUM_MEMORY=2GB
  # grow by what malloc asks for (not 20 % more): the heap then grows by at most a trainer's estimate
  -sMEMORY_GROWTH_GEOMETRIC_STEP=0
  -sFILESYSTEM=0
  # emmalloc: ~8 KB smaller than dlmalloc; its speed does not matter here (a trainer allocates only when built)
  -sMALLOC=emmalloc
  -sDYNAMIC_EXECUTION=0)

set(SQRTDK_WASM_SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/src/wasm/bindings.cpp ${CMAKE_CURRENT_SOURCE_DIR}/src/wasm/js_fields.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/wasm/config_bindings.cpp ${CMAKE_CURRENT_SOURCE_DIR}/src/wasm/trainer_bindings.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/wasm/scenario_bindings.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/wasm/analysis_bindings.cpp ${CMAKE_CURRENT_SOURCE_DIR}/src/wasm/export_bindings.cpp)
add_executable(sqrtdk_module ${SQRTDK_WASM_SOURCES})
target_link_libraries(sqrtdk_module PRIVATE sqrtdk_core)
target_compile_options(sqrtdk_module PRIVATE ${SQRTDK_WARNINGS})
target_link_options(sqrtdk_module PRIVATE ${SQRTDK_MODULE_LINK_FLAGS})
set_target_properties(sqrtdk_module PROPERTIES OUTPUT_NAME sqrtdk SUFFIX ".js")

# The page's module: the same code, glue and .wasm apart.  web/build.mjs stores the .wasm LZMA-compressed in the
# bundle; the page unpacks it (src/worker/lzma-decode.js), compiles it once and hands the compiled module to every
# worker (instantiateWasm), so the glue never fetches anything and runs only in workers.
add_executable(sqrtdk_web_module ${SQRTDK_WASM_SOURCES})
target_link_libraries(sqrtdk_web_module PRIVATE sqrtdk_core)
target_compile_options(sqrtdk_web_module PRIVATE ${SQRTDK_WARNINGS})
set(SQRTDK_WEB_LINK_FLAGS ${SQRTDK_MODULE_LINK_FLAGS})
list(FILTER SQRTDK_WEB_LINK_FLAGS EXCLUDE REGEX "^-s(SINGLE_FILE|ENVIRONMENT)=")
target_link_options(sqrtdk_web_module PRIVATE ${SQRTDK_WEB_LINK_FLAGS} -sENVIRONMENT=worker)
set_target_properties(sqrtdk_web_module PROPERTIES OUTPUT_NAME sqrtdk_web SUFFIX ".js")

# The same module with C++ exception support, only to measure what exceptions would cost (benchmark).
add_library(sqrtdk_core_exceptions STATIC ${SQRTDK_CORE_SOURCES})
target_link_libraries(sqrtdk_core_exceptions PUBLIC sqrtdk_core_options)
target_compile_options(sqrtdk_core_exceptions PUBLIC -fexceptions)
add_executable(sqrtdk_module_exceptions ${SQRTDK_WASM_SOURCES})
target_link_libraries(sqrtdk_module_exceptions PRIVATE sqrtdk_core_exceptions)
target_link_options(sqrtdk_module_exceptions PRIVATE ${SQRTDK_MODULE_LINK_FLAGS} -fexceptions)
set_target_properties(sqrtdk_module_exceptions PROPERTIES OUTPUT_NAME sqrtdk_exceptions SUFFIX ".js")

# ---- the Catch2 suite, compiled to wasm and run under Node ------------------------------------
include(CTest)
if(BUILD_TESTING)
  # Catch2's single header, copied so that /usr/include (glibc's headers) stays off the include path.
  configure_file(/usr/include/catch2/catch.hpp ${CMAKE_CURRENT_BINARY_DIR}/catch_include/catch2/catch.hpp COPYONLY)
  file(GLOB SQRTDK_TEST_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tests/cpp/*.cpp)
  list(FILTER SQRTDK_TEST_SOURCES EXCLUDE REGEX "test_cli\\.cpp$")  # runs the native CLI binary
  add_executable(sqrtdk_tests_wasm ${SQRTDK_TEST_SOURCES})
  target_include_directories(sqrtdk_tests_wasm PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/catch_include)
  target_link_libraries(sqrtdk_tests_wasm PRIVATE sqrtdk_core_exceptions)
  target_compile_options(sqrtdk_tests_wasm PRIVATE -fexceptions)
  target_compile_definitions(sqrtdk_tests_wasm PRIVATE SQRTDK_FIXTURE_DIR="${CMAKE_CURRENT_SOURCE_DIR}/tests/fixtures")
  target_link_options(sqrtdk_tests_wasm PRIVATE -fexceptions ${SQRTDK_WASM_OPT} -sALLOW_MEMORY_GROWTH=1
                      -sNODERAWFS=1 -sENVIRONMENT=node -sEXIT_RUNTIME=1 -sSINGLE_FILE=1)  # Node 20 cannot fetch() a file path
  set_target_properties(sqrtdk_tests_wasm PROPERTIES OUTPUT_NAME sqrtdk_tests SUFFIX ".js")
  add_test(NAME catch2_suite_in_wasm COMMAND node ${CMAKE_CURRENT_BINARY_DIR}/sqrtdk_tests.js "~[slow]")
  # The claims table was measured natively: wasm re-measuring the first seeds of every scenario bit for bit is
  # native = wasm over each scenario's whole run (tests/cpp/test_scenarios.cpp).  Two halves, run in parallel.
  add_test(NAME claims_table_in_wasm_1 COMMAND node ${CMAKE_CURRENT_BINARY_DIR}/sqrtdk_tests.js
           "claims table is current: a*,claims table is current: s*")
  add_test(NAME claims_table_in_wasm_2 COMMAND node ${CMAKE_CURRENT_BINARY_DIR}/sqrtdk_tests.js
           "claims table is current: g*,claims table is current: l*,claims table is current: q*")
  set_tests_properties(catch2_suite_in_wasm claims_table_in_wasm_1 claims_table_in_wasm_2 PROPERTIES TIMEOUT 1800)
endif()

# The benchmark (src/bench/, the same sources as the native sqrtdk_bench) on the simd128 kernels, under Node:
# scripts/bench.mjs builds and runs it.
file(GLOB SQRTDK_BENCH_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/bench/*.cpp)
add_executable(sqrtdk_bench_wasm ${SQRTDK_BENCH_SOURCES})
target_link_libraries(sqrtdk_bench_wasm PRIVATE sqrtdk_core)
target_compile_options(sqrtdk_bench_wasm PRIVATE ${SQRTDK_WARNINGS})
target_link_options(sqrtdk_bench_wasm PRIVATE ${SQRTDK_WASM_OPT} -sALLOW_MEMORY_GROWTH=1 -sENVIRONMENT=node -sSINGLE_FILE=1)
set_target_properties(sqrtdk_bench_wasm PROPERTIES OUTPUT_NAME sqrtdk_bench SUFFIX ".js")
