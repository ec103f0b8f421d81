// The only door from Swift to libcrypto (OpenSSL 3): RSA and ECDSA P-256 SSH keys.
//
// Every function here is a funnel with its lifetime inside it: a private key comes in as PKCS#8
// DER in the caller's (protected) memory, becomes an OpenSSL object for the time of the one
// operation, and is freed before the function returns. No OpenSSL pointer ever reaches Swift.
// OpenSSL's own copies of the key (the EVP_PKEY, the PKCS8_PRIV_KEY_INFO, big numbers) are
// freed with the *_free functions that cleanse them (BN_clear_free for the secret ones).
#ifndef PWTUI_COPENSSL_SHIM_H
#define PWTUI_COPENSSL_SHIM_H

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/x509.h>
#include <stddef.h>
#include <string.h>

enum {
    PWTUI_SSL_KEY_UNKNOWN = 0,
    PWTUI_SSL_KEY_RSA = 1,
    PWTUI_SSL_KEY_P256 = 2,
};

enum {
    PWTUI_SSL_SHA1 = 1,
    PWTUI_SSL_SHA256 = 256,
    PWTUI_SSL_SHA512 = 512,
};

// The PKCS#8 DER of `pkey` into out[0..<capacity]; its length, or -1 (too small or failed).
static inline long pwtui_ssl_write_pkcs8(EVP_PKEY *pkey, unsigned char *out, size_t capacity) {
    PKCS8_PRIV_KEY_INFO *info = EVP_PKEY2PKCS8(pkey);
    if (info == NULL) return -1;
    long result = -1;
    int length = i2d_PKCS8_PRIV_KEY_INFO(info, NULL);
    if (length > 0 && (size_t)length <= capacity) {
        unsigned char *cursor = out;
        if (i2d_PKCS8_PRIV_KEY_INFO(info, &cursor) == length) result = length;
    }
    PKCS8_PRIV_KEY_INFO_free(info);
    return result;
}

// A new RSA key of `bits` bits (public exponent 65537), as PKCS#8 DER into `out`; its length or -1.
static inline long pwtui_ssl_generate_rsa(unsigned int bits, unsigned char *out, size_t capacity) {
    EVP_PKEY *pkey = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)bits);
    if (pkey == NULL) return -1;
    long result = pwtui_ssl_write_pkcs8(pkey, out, capacity);
    EVP_PKEY_free(pkey);
    return result;
}

// A new ECDSA key on P-256, as PKCS#8 DER into `out`; its length or -1.
static inline long pwtui_ssl_generate_p256(unsigned char *out, size_t capacity) {
    EVP_PKEY *pkey = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
    if (pkey == NULL) return -1;
    long result = pwtui_ssl_write_pkcs8(pkey, out, capacity);
    EVP_PKEY_free(pkey);
    return result;
}

// The key in der[0..<length] (PKCS#8), or NULL; the caller frees it with EVP_PKEY_free before it
// returns (only the functions below call it).
static inline EVP_PKEY *pwtui_ssl_read(const unsigned char *der, size_t length) {
    const unsigned char *cursor = der;
    PKCS8_PRIV_KEY_INFO *info = d2i_PKCS8_PRIV_KEY_INFO(NULL, &cursor, (long)length);
    if (info == NULL) return NULL;
    EVP_PKEY *pkey = (cursor == der + length) ? EVP_PKCS82PKEY(info) : NULL;
    PKCS8_PRIV_KEY_INFO_free(info);
    return pkey;
}

static inline int pwtui_ssl_type_of(EVP_PKEY *pkey) {
    if (EVP_PKEY_get_base_id(pkey) == EVP_PKEY_RSA) return PWTUI_SSL_KEY_RSA;
    if (EVP_PKEY_get_base_id(pkey) == EVP_PKEY_EC) {
        char group[32] = {0};
        size_t groupLength = 0;
        if (EVP_PKEY_get_group_name(pkey, group, sizeof group, &groupLength) == 1
            && strcmp(group, "prime256v1") == 0)
            return PWTUI_SSL_KEY_P256;
    }
    return PWTUI_SSL_KEY_UNKNOWN;
}

// A big-endian magnitude of the public big number `name` of `pkey` into out; its length or -1.
static inline long pwtui_ssl_public_number(EVP_PKEY *pkey, const char *name, unsigned char *out, size_t capacity) {
    BIGNUM *number = NULL;
    if (EVP_PKEY_get_bn_param(pkey, name, &number) != 1 || number == NULL) return -1;
    long result = -1;
    if ((size_t)BN_num_bytes(number) <= capacity) result = BN_bn2bin(number, out);
    BN_free(number);
    return result;
}

// The type of the key in der (PKCS#8) and its public parts: for RSA, the exponent e into
// first[..<firstCapacity] and the modulus n into second; for P-256, the uncompressed point
// (65 bytes, 0x04 x y) into first and nothing into second. The lengths written go to
// *firstLength and *secondLength. Returns the PWTUI_SSL_KEY_ type, UNKNOWN for any failure.
static inline int pwtui_ssl_public_key(
    const unsigned char *der, size_t length, unsigned char *first, size_t firstCapacity, size_t *firstLength,
    unsigned char *second, size_t secondCapacity, size_t *secondLength) {
    EVP_PKEY *pkey = pwtui_ssl_read(der, length);
    if (pkey == NULL) return PWTUI_SSL_KEY_UNKNOWN;
    int type = pwtui_ssl_type_of(pkey);
    *firstLength = 0;
    *secondLength = 0;
    if (type == PWTUI_SSL_KEY_RSA) {
        long e = pwtui_ssl_public_number(pkey, OSSL_PKEY_PARAM_RSA_E, first, firstCapacity);
        long n = pwtui_ssl_public_number(pkey, OSSL_PKEY_PARAM_RSA_N, second, secondCapacity);
        if (e < 0 || n < 0) type = PWTUI_SSL_KEY_UNKNOWN;
        else { *firstLength = (size_t)e; *secondLength = (size_t)n; }
    } else if (type == PWTUI_SSL_KEY_P256) {
        // Uncompressed whatever the key's stored conversion form, as SSH's blob needs (RFC 5656).
        if (EVP_PKEY_set_utf8_string_param(pkey, OSSL_PKEY_PARAM_EC_POINT_CONVERSION_FORMAT,
                                           OSSL_PKEY_EC_POINT_CONVERSION_FORMAT_UNCOMPRESSED) != 1
            || EVP_PKEY_get_octet_string_param(pkey, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, first, firstCapacity,
                                               firstLength) != 1)
            type = PWTUI_SSL_KEY_UNKNOWN;
    }
    EVP_PKEY_free(pkey);
    return type;
}

// OpenSSL's digest for PWTUI_SSL_SHA1, _SHA256 or _SHA512; NULL for any other value.
static inline const EVP_MD *pwtui_ssl_digest(int digest) {
    switch (digest) {
    case PWTUI_SSL_SHA1: return EVP_sha1();
    case PWTUI_SSL_SHA256: return EVP_sha256();
    case PWTUI_SSL_SHA512: return EVP_sha512();
    default: return NULL;
    }
}

// The signature of message by the key in der (PKCS#8), over the digest `digest` (PWTUI_SSL_SHA*):
// for RSA, PKCS#1 v1.5, the raw signature into out; for P-256, ECDSA, r and s each as 32
// big-endian bytes (r then s, 64 in all). Its length, or -1.
static inline long pwtui_ssl_sign(
    const unsigned char *der, size_t length, int digest, const unsigned char *message, size_t messageLength,
    unsigned char *out, size_t capacity) {
    const EVP_MD *md = pwtui_ssl_digest(digest);
    if (md == NULL) return -1;
    EVP_PKEY *pkey = pwtui_ssl_read(der, length);
    if (pkey == NULL) return -1;
    int type = pwtui_ssl_type_of(pkey);
    long result = -1;
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    size_t signatureLength = 0;
    if (type != PWTUI_SSL_KEY_UNKNOWN && context != NULL
        && EVP_DigestSignInit(context, NULL, md, NULL, pkey) == 1
        && EVP_DigestSign(context, NULL, &signatureLength, message, messageLength) == 1) {
        unsigned char *signature = OPENSSL_malloc(signatureLength);
        if (signature != NULL
            && EVP_DigestSign(context, signature, &signatureLength, message, messageLength) == 1) {
            if (type == PWTUI_SSL_KEY_RSA) {
                if (signatureLength <= capacity) {
                    memcpy(out, signature, signatureLength);
                    result = (long)signatureLength;
                }
            } else if (capacity >= 64) {
                const unsigned char *cursor = signature;
                ECDSA_SIG *pair = d2i_ECDSA_SIG(NULL, &cursor, (long)signatureLength);
                if (pair != NULL) {
                    if (BN_bn2binpad(ECDSA_SIG_get0_r(pair), out, 32) == 32
                        && BN_bn2binpad(ECDSA_SIG_get0_s(pair), out + 32, 32) == 32)
                        result = 64;
                    ECDSA_SIG_free(pair);
                }
            }
        }
        OPENSSL_free(signature);
    }
    EVP_MD_CTX_free(context);
    EVP_PKEY_free(pkey);
    return result;
}

// Whether signature (as pwtui_ssl_sign makes it: RSA's raw signature, P-256's r and s, 32
// bytes each) is pkey's signature of message: 1 yes, 0 no, -1 failed. pkey stays the caller's.
static inline int pwtui_ssl_verify_with(
    EVP_PKEY *pkey, int digest, const unsigned char *message, size_t messageLength,
    const unsigned char *signature, size_t signatureLength) {
    const EVP_MD *md = pwtui_ssl_digest(digest);
    if (md == NULL) return -1;
    int type = pwtui_ssl_type_of(pkey);
    int result = -1;
    unsigned char *encoded = NULL;
    int encodedLength = 0;
    if (type == PWTUI_SSL_KEY_P256) {
        // Back to the DER ECDSA-Sig-Value that EVP verifies.
        if (signatureLength != 64) return 0;
        ECDSA_SIG *pair = ECDSA_SIG_new();
        BIGNUM *r = BN_bin2bn(signature, 32, NULL);
        BIGNUM *s = BN_bin2bn(signature + 32, 32, NULL);
        if (pair != NULL && r != NULL && s != NULL && ECDSA_SIG_set0(pair, r, s) == 1) {
            r = NULL;
            s = NULL;
            encodedLength = i2d_ECDSA_SIG(pair, &encoded);
        }
        BN_free(r);
        BN_free(s);
        ECDSA_SIG_free(pair);
        if (encodedLength <= 0) return -1;
    }
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    if (type != PWTUI_SSL_KEY_UNKNOWN && context != NULL && EVP_DigestVerifyInit(context, NULL, md, NULL, pkey) == 1) {
        int verified = encoded != NULL
            ? EVP_DigestVerify(context, encoded, (size_t)encodedLength, message, messageLength)
            : EVP_DigestVerify(context, signature, signatureLength, message, messageLength);
        result = verified == 1 ? 1 : 0;
    }
    OPENSSL_free(encoded);
    EVP_MD_CTX_free(context);
    return result;
}

// As pwtui_ssl_verify_with, by the public half of the key in der (PKCS#8). For tests and checks.
static inline int pwtui_ssl_verify(
    const unsigned char *der, size_t length, int digest, const unsigned char *message, size_t messageLength,
    const unsigned char *signature, size_t signatureLength) {
    EVP_PKEY *pkey = pwtui_ssl_read(der, length);
    if (pkey == NULL) return -1;
    int result = pwtui_ssl_verify_with(pkey, digest, message, messageLength, signature, signatureLength);
    EVP_PKEY_free(pkey);
    return result;
}

// As pwtui_ssl_verify_with, by a public key given by its parts (another's key: a server's host
// key, which signs the session an ssh client binds to the agent): for PWTUI_SSL_KEY_RSA, first
// is the exponent e and second the modulus n (big-endian magnitudes); for PWTUI_SSL_KEY_P256,
// first is the point (65 bytes, uncompressed) and second is unused.
static inline int pwtui_ssl_verify_public(
    int type, const unsigned char *first, size_t firstLength, const unsigned char *second, size_t secondLength,
    int digest, const unsigned char *message, size_t messageLength, const unsigned char *signature,
    size_t signatureLength) {
    OSSL_PARAM_BLD *builder = OSSL_PARAM_BLD_new();
    if (builder == NULL) return -1;
    BIGNUM *e = NULL;
    BIGNUM *n = NULL;
    int built = 0;
    const char *name = NULL;
    if (type == PWTUI_SSL_KEY_RSA) {
        name = "RSA";
        e = BN_bin2bn(first, (int)firstLength, NULL);
        n = BN_bin2bn(second, (int)secondLength, NULL);
        built = e != NULL && n != NULL && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_N, n) == 1
            && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_E, e) == 1;
    } else if (type == PWTUI_SSL_KEY_P256) {
        name = "EC";
        built = OSSL_PARAM_BLD_push_utf8_string(builder, OSSL_PKEY_PARAM_GROUP_NAME, "P-256", 0) == 1
            && OSSL_PARAM_BLD_push_octet_string(builder, OSSL_PKEY_PARAM_PUB_KEY, first, firstLength) == 1;
    }
    OSSL_PARAM *params = built ? OSSL_PARAM_BLD_to_param(builder) : NULL;
    EVP_PKEY_CTX *context = params != NULL ? EVP_PKEY_CTX_new_from_name(NULL, name, NULL) : NULL;
    EVP_PKEY *pkey = NULL;
    int result = -1;
    if (context != NULL && EVP_PKEY_fromdata_init(context) == 1
        && EVP_PKEY_fromdata(context, &pkey, EVP_PKEY_PUBLIC_KEY, params) == 1 && pkey != NULL) {
        result = pwtui_ssl_verify_with(pkey, digest, message, messageLength, signature, signatureLength);
    }
    EVP_PKEY_free(pkey);
    EVP_PKEY_CTX_free(context);
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(builder);
    BN_free(e);
    BN_free(n);
    return result;
}

#endif
