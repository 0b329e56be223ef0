// curl_error.cpp: curl result codes as typed Errors: tls for certificate and handshake failures, protocol for
// answers curl could not parse, network for the rest, with the CURLE_* name as the code and curl's own detail
// (CURLOPT_ERRORBUFFER) in the message.
#include <curl/curl.h>

#include <array>
#include <string>
#include <string_view>
#include <utility>

#include "client/http_exchange.h"

namespace s3up {
namespace {

struct CurlCodeName {
  CURLcode code;
  std::string_view name;
};

// The names of the codes an HTTP(S) transfer can end with; others are written CURLE_<number>.
constexpr std::array<CurlCodeName, 38> curl_code_names = {{
    {CURLE_UNSUPPORTED_PROTOCOL, "CURLE_UNSUPPORTED_PROTOCOL"},
    {CURLE_FAILED_INIT, "CURLE_FAILED_INIT"},
    {CURLE_URL_MALFORMAT, "CURLE_URL_MALFORMAT"},
    {CURLE_COULDNT_RESOLVE_PROXY, "CURLE_COULDNT_RESOLVE_PROXY"},
    {CURLE_COULDNT_RESOLVE_HOST, "CURLE_COULDNT_RESOLVE_HOST"},
    {CURLE_COULDNT_CONNECT, "CURLE_COULDNT_CONNECT"},
    {CURLE_WEIRD_SERVER_REPLY, "CURLE_WEIRD_SERVER_REPLY"},
    {CURLE_HTTP2, "CURLE_HTTP2"},
    {CURLE_PARTIAL_FILE, "CURLE_PARTIAL_FILE"},
    {CURLE_HTTP_RETURNED_ERROR, "CURLE_HTTP_RETURNED_ERROR"},
    {CURLE_WRITE_ERROR, "CURLE_WRITE_ERROR"},
    {CURLE_UPLOAD_FAILED, "CURLE_UPLOAD_FAILED"},
    {CURLE_READ_ERROR, "CURLE_READ_ERROR"},
    {CURLE_OUT_OF_MEMORY, "CURLE_OUT_OF_MEMORY"},
    {CURLE_OPERATION_TIMEDOUT, "CURLE_OPERATION_TIMEDOUT"},
    {CURLE_RANGE_ERROR, "CURLE_RANGE_ERROR"},
    {CURLE_SSL_CONNECT_ERROR, "CURLE_SSL_CONNECT_ERROR"},
    {CURLE_ABORTED_BY_CALLBACK, "CURLE_ABORTED_BY_CALLBACK"},
    {CURLE_BAD_FUNCTION_ARGUMENT, "CURLE_BAD_FUNCTION_ARGUMENT"},
    {CURLE_INTERFACE_FAILED, "CURLE_INTERFACE_FAILED"},
    {CURLE_TOO_MANY_REDIRECTS, "CURLE_TOO_MANY_REDIRECTS"},
    {CURLE_UNKNOWN_OPTION, "CURLE_UNKNOWN_OPTION"},
    {CURLE_GOT_NOTHING, "CURLE_GOT_NOTHING"},
    {CURLE_SSL_ENGINE_NOTFOUND, "CURLE_SSL_ENGINE_NOTFOUND"},
    {CURLE_SSL_ENGINE_SETFAILED, "CURLE_SSL_ENGINE_SETFAILED"},
    {CURLE_SEND_ERROR, "CURLE_SEND_ERROR"},
    {CURLE_RECV_ERROR, "CURLE_RECV_ERROR"},
    {CURLE_SSL_CERTPROBLEM, "CURLE_SSL_CERTPROBLEM"},
    {CURLE_SSL_CIPHER, "CURLE_SSL_CIPHER"},
    {CURLE_PEER_FAILED_VERIFICATION, "CURLE_PEER_FAILED_VERIFICATION"},
    {CURLE_BAD_CONTENT_ENCODING, "CURLE_BAD_CONTENT_ENCODING"},
    {CURLE_SEND_FAIL_REWIND, "CURLE_SEND_FAIL_REWIND"},
    {CURLE_SSL_CACERT_BADFILE, "CURLE_SSL_CACERT_BADFILE"},
    {CURLE_SSL_SHUTDOWN_FAILED, "CURLE_SSL_SHUTDOWN_FAILED"},
    {CURLE_SSL_CRL_BADFILE, "CURLE_SSL_CRL_BADFILE"},
    {CURLE_SSL_ISSUER_ERROR, "CURLE_SSL_ISSUER_ERROR"},
    {CURLE_SSL_PINNEDPUBKEYNOTMATCH, "CURLE_SSL_PINNEDPUBKEYNOTMATCH"},
    {CURLE_SSL_INVALIDCERTSTATUS, "CURLE_SSL_INVALIDCERTSTATUS"},
}};

bool is_tls_failure(CURLcode code) {
  switch (code) {
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_SSL_ENGINE_NOTFOUND:
    case CURLE_SSL_ENGINE_SETFAILED:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_SHUTDOWN_FAILED:
    case CURLE_SSL_CRL_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS:
    case CURLE_SSL_ENGINE_INITFAILED:
    case CURLE_SSL_CLIENTCERT:
    case CURLE_USE_SSL_FAILED:
      return true;
    default:
      return false;
  }
}

// The server answered, but not in HTTP curl could read: retrying the same server rarely helps. Our URLs are
// always http or https (the endpoint is checked), so CURLE_UNSUPPORTED_PROTOCOL only comes from an answer
// that is not HTTP/1.x at all, which curl takes for HTTP/0.9 and refuses.
bool is_unreadable_answer(CURLcode code) {
  return code == CURLE_WEIRD_SERVER_REPLY || code == CURLE_BAD_CONTENT_ENCODING ||
         code == CURLE_UNSUPPORTED_PROTOCOL;
}

}  // namespace

Error curl_error(CURLcode code, std::string_view error_buffer) {
  Error error;
  error.kind = is_tls_failure(code)         ? Error::Kind::tls
               : is_unreadable_answer(code) ? Error::Kind::protocol
                                            : Error::Kind::network;
  error.code = "CURLE_" + std::to_string(static_cast<int>(code));
  for (const auto& entry : curl_code_names) {
    if (entry.code == code) error.code = std::string(entry.name);
  }
  error.message = curl_easy_strerror(code);
  if (!error_buffer.empty()) error.message += ": " + std::string(error_buffer);
  return error;
}

}  // namespace s3up
