# Packaging: what `cmake --install` puts under the prefix, so that other projects build against s3up with
# find_package(s3up CONFIG) -> s3up::s3up, or with pkg-config's s3up.pc. Included by the top CMakeLists.txt.

include(CMakePackageConfigHelpers)

# Every library, in link order (a library before those it uses), as pkg-config's Libs needs them. The
# exported names drop the s3up_ prefix: s3up_client -> s3up::client.
set(s3up_installed_libraries s3up_transfer s3up_client s3up_body s3up_mock_server s3up_sigv4 s3up_checksum)
foreach(library IN LISTS s3up_installed_libraries)
  string(REGEX REPLACE "^s3up_" "" export_name ${library})
  set_target_properties(${library} PROPERTIES EXPORT_NAME ${export_name})
endforeach()
set_target_properties(s3up PROPERTIES EXPORT_NAME s3up)

install(TARGETS s3up ${s3up_installed_libraries} EXPORT s3upTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS s3up_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# The public headers: include/s3up/*.h of every module, and the umbrella s3up/s3up.h.
foreach(module IN ITEMS checksum sigv4 body client transfer mock_server)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${module}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
          FILES_MATCHING PATTERN "*.h")
endforeach()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")

# Static archives carry their private dependencies to the final link: the package must find curl, OpenSSL,
# zlib, spdlog and threads for its users. Shared libraries resolve them themselves, and no public header
# includes any of them.
get_target_property(s3up_library_type s3up_client TYPE)
if(s3up_library_type STREQUAL "STATIC_LIBRARY")
  set(S3UP_STATIC_DEPENDENCIES ON)
  set(s3up_pc_requires "libcurl openssl zlib spdlog")
  set(s3up_pc_requires_private "")
  set(s3up_pc_threads_libs "-pthread")
else()
  set(S3UP_STATIC_DEPENDENCIES OFF)
  set(s3up_pc_requires "")
  set(s3up_pc_requires_private "libcurl openssl zlib spdlog")
  set(s3up_pc_threads_libs "")
endif()

set(s3up_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/s3up)
install(EXPORT s3upTargets NAMESPACE s3up:: DESTINATION ${s3up_cmake_dir})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/s3upConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/s3upConfig.cmake INSTALL_DESTINATION ${s3up_cmake_dir})
# 0.x: a minor version may break the API, so only the same minor version is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/s3upConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/s3upConfig.cmake ${PROJECT_BINARY_DIR}/s3upConfigVersion.cmake
        DESTINATION ${s3up_cmake_dir})

# pkg-config: the prefix is found from the .pc file's own place, so `cmake --install --prefix DIR` (chosen at
# install time, after this file is written) gives a working s3up.pc.
list(TRANSFORM s3up_installed_libraries PREPEND "-l" OUTPUT_VARIABLE s3up_pc_libs)
list(JOIN s3up_pc_libs " " s3up_pc_libs)
file(RELATIVE_PATH s3up_pc_to_prefix /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
string(REGEX REPLACE "/$" "" s3up_pc_to_prefix ${s3up_pc_to_prefix})
configure_file(${CMAKE_CURRENT_LIST_DIR}/s3up.pc.in ${PROJECT_BINARY_DIR}/s3up.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/s3up.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
