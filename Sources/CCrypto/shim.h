#ifndef VITRINE_CCRYPTO_SHIM_H
#define VITRINE_CCRYPTO_SHIM_H

// SHA-256 from OpenSSL's libcrypto (already loaded by libcurl4-openssl): its assembly uses the processor's SHA
// instructions where there are some. OpenSSL 3 deprecates SHA256_Init/Update/Final in favour of EVP contexts on the
// heap; the low-level functions run the same code on a plain struct, which a Swift value can hold, so the API level
// is set to 1.1.1 to declare them without deprecation warnings.
#define OPENSSL_API_COMPAT 10101
#include <openssl/sha.h>

#endif
