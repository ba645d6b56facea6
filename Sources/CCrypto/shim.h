#ifndef VITRINE_CCRYPTO_SHIM_H
#define VITRINE_CCRYPTO_SHIM_H

// SHA-256 from OpenSSL's libcrypto (already loaded by libcurl4-openssl) through its supported EVP interface: its
// assembly uses the processor's SHA instructions where there are some.
#include <openssl/evp.h>

#endif
