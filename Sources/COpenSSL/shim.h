// The only door from Swift to libcrypto (OpenSSL 3): RSA and ECDSA P-256 SSH keys, and the
// Secret Service's Diffie-Hellman session (dh-ietf1024-sha256-aes128-cbc-pkcs7).
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
#include <openssl/kdf.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
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

// MARK: - Importing and exporting keys (ssh import, ssh export --private)

enum {
    PWTUI_PEM_RSA = 1,            // PKCS#8 DER of an RSA key written; *bits its size
    PWTUI_PEM_P256 = 2,           // PKCS#8 DER of a P-256 key written
    PWTUI_PEM_ED25519 = 3,        // the 32-byte Ed25519 seed written
    PWTUI_PEM_NEEDS_PASSPHRASE = 4,
    PWTUI_PEM_WRONG_PASSPHRASE = 5,
    PWTUI_PEM_UNREADABLE = 6,     // not a private key OpenSSL can read
    PWTUI_PEM_DSA = 7,
    PWTUI_PEM_EC_OTHER_CURVE = 8, // *bits the curve's size
    PWTUI_PEM_OTHER_TYPE = 9,
    PWTUI_PEM_INCONSISTENT = 10,  // RSA or P-256 numbers that do not make one key (pairwise check)
};

// The passphrase handed to OpenSSL's callback, and whether OpenSSL asked for one.
typedef struct {
    const unsigned char *passphrase;
    size_t length;
    int available;
    int asked;
} pwtui_ssl_passphrase;

// OpenSSL's pem_password_cb: copies the passphrase into OpenSSL's buffer (which OpenSSL cleanses
// after use), or fails when there is none (the caller then asks the user and tries again).
static inline int pwtui_ssl_passphrase_callback(char *buffer, int size, int rwflag, void *user) {
    (void)rwflag;
    pwtui_ssl_passphrase *source = (pwtui_ssl_passphrase *)user;
    source->asked = 1;
    if (!source->available || size < 0 || source->length > (size_t)size) return -1;
    memcpy(buffer, source->passphrase, source->length);
    return (int)source->length;
}

// Whether pkey's private and public numbers make one key (OpenSSL's pairwise check: for RSA,
// n = pq and d inverts e; for EC, the public point is the private scalar times the generator).
// A PEM or PKCS#8 file is parsed without it: a damaged key would be taken, and sign wrongly.
static inline int pwtui_ssl_is_consistent(EVP_PKEY *pkey) {
    EVP_PKEY_CTX *check = EVP_PKEY_CTX_new_from_pkey(NULL, pkey, NULL);
    int consistent = check != NULL && EVP_PKEY_pairwise_check(check) == 1;
    EVP_PKEY_CTX_free(check);
    ERR_clear_error();
    return consistent;
}

// Reads the PEM private key in pem[0..<length] (PKCS#1 "RSA PRIVATE KEY" plain or with DEK-Info,
// "EC PRIVATE KEY", PKCS#8 "PRIVATE KEY" and "ENCRYPTED PRIVATE KEY"), decrypting it with the
// passphrase when it is encrypted (`hasPassphrase` 0: none given). For RSA and P-256 the key's
// PKCS#8 DER goes into out; for Ed25519 its 32-byte seed. Returns a PWTUI_PEM_ code, the length
// written in *written, the key's size in bits in *bits. OpenSSL's key object is freed (cleansed)
// before returning; its error queue is cleared.
static inline int pwtui_ssl_read_pem(
    const unsigned char *pem, size_t length, const unsigned char *passphrase, size_t passphraseLength,
    int hasPassphrase, unsigned char *out, size_t capacity, size_t *written, int *bits) {
    *written = 0;
    *bits = 0;
    if (length > (size_t)0x7fffffff) return PWTUI_PEM_UNREADABLE;
    BIO *bio = BIO_new_mem_buf(pem, (int)length);
    if (bio == NULL) return PWTUI_PEM_UNREADABLE;
    pwtui_ssl_passphrase source = {passphrase, passphraseLength, hasPassphrase, 0};
    EVP_PKEY *pkey = PEM_read_bio_PrivateKey(bio, NULL, pwtui_ssl_passphrase_callback, &source);
    BIO_free(bio);
    ERR_clear_error();
    if (pkey == NULL) {
        if (source.asked) return hasPassphrase ? PWTUI_PEM_WRONG_PASSPHRASE : PWTUI_PEM_NEEDS_PASSPHRASE;
        return PWTUI_PEM_UNREADABLE;
    }
    *bits = EVP_PKEY_get_bits(pkey);
    int result = PWTUI_PEM_OTHER_TYPE;
    int base = EVP_PKEY_get_base_id(pkey);
    if (base == EVP_PKEY_ED25519) {
        size_t seedLength = capacity;
        if (EVP_PKEY_get_raw_private_key(pkey, out, &seedLength) == 1 && seedLength == 32) {
            *written = 32;
            result = PWTUI_PEM_ED25519;
        } else {
            result = PWTUI_PEM_UNREADABLE;
        }
    } else if (base == EVP_PKEY_DSA) {
        result = PWTUI_PEM_DSA;
    } else if (base == EVP_PKEY_RSA || base == EVP_PKEY_EC) {
        int type = pwtui_ssl_type_of(pkey);
        if (type == PWTUI_SSL_KEY_UNKNOWN) {
            result = base == EVP_PKEY_EC ? PWTUI_PEM_EC_OTHER_CURVE : PWTUI_PEM_OTHER_TYPE;
        } else if (!pwtui_ssl_is_consistent(pkey)) {
            result = PWTUI_PEM_INCONSISTENT;
        } else {
            long der = pwtui_ssl_write_pkcs8(pkey, out, capacity);
            if (der > 0) {
                *written = (size_t)der;
                result = type == PWTUI_SSL_KEY_RSA ? PWTUI_PEM_RSA : PWTUI_PEM_P256;
            } else {
                result = PWTUI_PEM_UNREADABLE;
            }
        }
    }
    EVP_PKEY_free(pkey);
    ERR_clear_error();
    return result;
}

// Frees params made by OSSL_PARAM_BLD_to_param after cleansing every value (OpenSSL 3.0 has no
// OSSL_PARAM_clear_free): they held a private key's numbers.
static inline void pwtui_ssl_params_clear_free(OSSL_PARAM *params) {
    if (params == NULL) return;
    for (OSSL_PARAM *param = params; param->key != NULL; param++)
        if (param->data != NULL && param->data_size > 0) OPENSSL_cleanse(param->data, param->data_size);
    OSSL_PARAM_free(params);
}

// The PKCS#8 DER of the `type` key made from params, checked by OpenSSL's pairwise check
// (the private half matches the public one); its length or -1.
static inline long pwtui_ssl_from_params(const char *type, OSSL_PARAM *params, unsigned char *out, size_t capacity) {
    long result = -1;
    EVP_PKEY *pkey = NULL;
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_name(NULL, type, NULL);
    if (context != NULL && EVP_PKEY_fromdata_init(context) == 1
        && EVP_PKEY_fromdata(context, &pkey, EVP_PKEY_KEYPAIR, params) == 1 && pkey != NULL) {
        EVP_PKEY_CTX *check = EVP_PKEY_CTX_new_from_pkey(NULL, pkey, NULL);
        if (check != NULL && EVP_PKEY_pairwise_check(check) == 1) result = pwtui_ssl_write_pkcs8(pkey, out, capacity);
        EVP_PKEY_CTX_free(check);
    }
    EVP_PKEY_free(pkey);
    EVP_PKEY_CTX_free(context);
    ERR_clear_error();
    return result;
}

// An RSA key from OpenSSH's parts, big-endian magnitudes one after the other in parts, their
// lengths in lengths[0..<6] in OpenSSH's order: n, e, d, iqmp, p, q. The CRT exponents OpenSSH
// does not store are computed (d mod p-1, d mod q-1). PKCS#8 DER into out; its length or -1.
static inline long pwtui_ssl_rsa_from_parts(
    const unsigned char *parts, const size_t *lengths, unsigned char *out, size_t capacity) {
    BIGNUM *numbers[6] = {NULL, NULL, NULL, NULL, NULL, NULL};
    size_t offset = 0;
    int ok = 1;
    for (int i = 0; i < 6 && ok; i++) {
        if (lengths[i] > (size_t)0x7fffffff) { ok = 0; break; }
        numbers[i] = BN_bin2bn(parts + offset, (int)lengths[i], NULL);
        if (numbers[i] == NULL) ok = 0;
        else if (i != 0 && i != 1) BN_set_flags(numbers[i], BN_FLG_CONSTTIME);
        offset += lengths[i];
    }
    BN_CTX *bnContext = BN_CTX_new();
    BIGNUM *dp = BN_new(), *dq = BN_new(), *pMinus = BN_new(), *qMinus = BN_new();
    long result = -1;
    if (ok && bnContext != NULL && dp != NULL && dq != NULL && pMinus != NULL && qMinus != NULL
        && BN_sub(pMinus, numbers[4], BN_value_one()) == 1 && BN_sub(qMinus, numbers[5], BN_value_one()) == 1
        && BN_mod(dp, numbers[2], pMinus, bnContext) == 1 && BN_mod(dq, numbers[2], qMinus, bnContext) == 1) {
        OSSL_PARAM_BLD *builder = OSSL_PARAM_BLD_new();
        OSSL_PARAM *params = NULL;
        if (builder != NULL
            && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_N, numbers[0]) == 1
            && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_E, numbers[1]) == 1
            && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_D, numbers[2]) == 1
            && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_FACTOR1, numbers[4]) == 1
            && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_FACTOR2, numbers[5]) == 1
            && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_EXPONENT1, dp) == 1
            && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_EXPONENT2, dq) == 1
            && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_COEFFICIENT1, numbers[3]) == 1)
            params = OSSL_PARAM_BLD_to_param(builder);
        if (params != NULL) result = pwtui_ssl_from_params("RSA", params, out, capacity);
        pwtui_ssl_params_clear_free(params);
        OSSL_PARAM_BLD_free(builder);
    }
    for (int i = 0; i < 6; i++) BN_clear_free(numbers[i]);
    BN_clear_free(dp);
    BN_clear_free(dq);
    BN_clear_free(pMinus);
    BN_clear_free(qMinus);
    BN_CTX_free(bnContext);
    ERR_clear_error();
    return result;
}

// A P-256 key from its private scalar d (big-endian) and public point Q (uncompressed, 65
// bytes). PKCS#8 DER into out; its length or -1.
static inline long pwtui_ssl_p256_from_parts(
    const unsigned char *scalar, size_t scalarLength, const unsigned char *point, size_t pointLength,
    unsigned char *out, size_t capacity) {
    if (scalarLength > 64 || pointLength != 65) return -1;
    BIGNUM *d = BN_bin2bn(scalar, (int)scalarLength, NULL);
    long result = -1;
    OSSL_PARAM_BLD *builder = OSSL_PARAM_BLD_new();
    OSSL_PARAM *params = NULL;
    if (d != NULL && builder != NULL
        && OSSL_PARAM_BLD_push_utf8_string(builder, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0) == 1
        && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_PRIV_KEY, d) == 1
        && OSSL_PARAM_BLD_push_octet_string(builder, OSSL_PKEY_PARAM_PUB_KEY, point, pointLength) == 1)
        params = OSSL_PARAM_BLD_to_param(builder);
    if (params != NULL) result = pwtui_ssl_from_params("EC", params, out, capacity);
    pwtui_ssl_params_clear_free(params);
    OSSL_PARAM_BLD_free(builder);
    BN_clear_free(d);
    ERR_clear_error();
    return result;
}

// The private parts of the key in der (PKCS#8), as OpenSSH's file stores them, big-endian
// magnitudes one after the other into out, their lengths into lengths: for RSA six (n, e, d,
// iqmp, p, q), for P-256 one (the scalar d). Returns how many, or -1.
static inline int pwtui_ssl_private_parts(
    const unsigned char *der, size_t length, unsigned char *out, size_t capacity, size_t *lengths) {
    EVP_PKEY *pkey = pwtui_ssl_read(der, length);
    if (pkey == NULL) return -1;
    int type = pwtui_ssl_type_of(pkey);
    static const char *rsaNames[6] = {
        OSSL_PKEY_PARAM_RSA_N, OSSL_PKEY_PARAM_RSA_E, OSSL_PKEY_PARAM_RSA_D,
        OSSL_PKEY_PARAM_RSA_COEFFICIENT1, OSSL_PKEY_PARAM_RSA_FACTOR1, OSSL_PKEY_PARAM_RSA_FACTOR2};
    static const char *ecNames[1] = {OSSL_PKEY_PARAM_PRIV_KEY};
    const char **names = type == PWTUI_SSL_KEY_RSA ? rsaNames : ecNames;
    int count = type == PWTUI_SSL_KEY_RSA ? 6 : type == PWTUI_SSL_KEY_P256 ? 1 : 0;
    int result = count > 0 ? count : -1;
    size_t offset = 0;
    for (int i = 0; i < count && result > 0; i++) {
        BIGNUM *number = NULL;
        if (EVP_PKEY_get_bn_param(pkey, names[i], &number) != 1 || number == NULL
            || (size_t)BN_num_bytes(number) > capacity - offset) {
            result = -1;
        } else {
            lengths[i] = (size_t)BN_bn2bin(number, out + offset);
            offset += lengths[i];
        }
        BN_clear_free(number);
    }
    EVP_PKEY_free(pkey);
    ERR_clear_error();
    return result;
}

enum {
    PWTUI_SSL_AES128_CTR = 1,
    PWTUI_SSL_AES192_CTR = 2,
    PWTUI_SSL_AES256_CTR = 3,
    PWTUI_SSL_AES128_CBC = 4,
    PWTUI_SSL_AES192_CBC = 5,
    PWTUI_SSL_AES256_CBC = 6,
    PWTUI_SSL_AES256_GCM = 7,
};

// Decrypts in[0..<length] into out (as long) with AES in the mode `cipher` (PWTUI_SSL_AES*),
// key and iv of the mode's sizes, no padding. For GCM, tag (16 bytes) is checked (no associated
// data). Returns 1, 0 when GCM's tag does not match, -1 for any other failure.
static inline int pwtui_ssl_decrypt(
    int cipher, const unsigned char *key, const unsigned char *iv, const unsigned char *in, size_t length,
    unsigned char *out, const unsigned char *tag) {
    const EVP_CIPHER *evp = NULL;
    switch (cipher) {
    case PWTUI_SSL_AES128_CTR: evp = EVP_aes_128_ctr(); break;
    case PWTUI_SSL_AES192_CTR: evp = EVP_aes_192_ctr(); break;
    case PWTUI_SSL_AES256_CTR: evp = EVP_aes_256_ctr(); break;
    case PWTUI_SSL_AES128_CBC: evp = EVP_aes_128_cbc(); break;
    case PWTUI_SSL_AES192_CBC: evp = EVP_aes_192_cbc(); break;
    case PWTUI_SSL_AES256_CBC: evp = EVP_aes_256_cbc(); break;
    case PWTUI_SSL_AES256_GCM: evp = EVP_aes_256_gcm(); break;
    default: return -1;
    }
    if (length > (size_t)0x7fffffff) return -1;
    EVP_CIPHER_CTX *context = EVP_CIPHER_CTX_new();
    if (context == NULL) return -1;
    int result = -1;
    int outLength = 0, finalLength = 0;
    if (EVP_DecryptInit_ex(context, evp, NULL, key, iv) == 1 && EVP_CIPHER_CTX_set_padding(context, 0) == 1
        && EVP_DecryptUpdate(context, out, &outLength, in, (int)length) == 1) {
        if (cipher == PWTUI_SSL_AES256_GCM
            && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, 16, (void *)tag) != 1) {
            result = -1;
        } else if (EVP_DecryptFinal_ex(context, out + outLength, &finalLength) == 1) {
            result = (size_t)(outLength + finalLength) == length ? 1 : -1;
        } else {
            result = cipher == PWTUI_SSL_AES256_GCM ? 0 : -1;
        }
    }
    EVP_CIPHER_CTX_free(context);
    ERR_clear_error();
    return result;
}

// MARK: - The Secret Service's session (dh-ietf1024-sha256-aes128-cbc-pkcs7, as libsecret does it)

// 2^x mod p in RFC 2409's 1024-bit MODP group (Oakley group 2, generator 2), x the big-endian
// exponent: the public key, as a minimal big-endian magnitude into out (room for 128 bytes). Its
// length, or -1. The exponent's big number is cleared before it is freed.
static inline long pwtui_ssl_dh1024_public(const unsigned char *exponent, size_t exponentLength, unsigned char *out) {
    if (exponentLength == 0 || exponentLength > 128) return -1;
    BIGNUM *p = BN_get_rfc2409_prime_1024(NULL);
    BIGNUM *g = BN_new();
    BIGNUM *x = BN_secure_new();
    BIGNUM *y = BN_new();
    BN_CTX *context = BN_CTX_secure_new();
    long result = -1;
    if (p != NULL && g != NULL && x != NULL && y != NULL && context != NULL && BN_set_word(g, 2) == 1
        && BN_bin2bn(exponent, (int)exponentLength, x) != NULL
        && BN_mod_exp_mont_consttime(y, g, x, p, context, NULL) == 1 && BN_num_bytes(y) <= 128)
        result = BN_bn2bin(y, out);
    BN_free(p);
    BN_free(g);
    BN_clear_free(x);
    BN_free(y);
    BN_CTX_free(context);
    ERR_clear_error();
    return result;
}

// The session's AES key: the shared secret peer^x mod p (x the big-endian exponent, peer the
// other side's public key as a big-endian magnitude), left-padded to the prime's 128 bytes, then
// HKDF-SHA256 with no salt and no info to 16 bytes into key. A peer key outside [2, p-2] (0, 1
// and p-1 give a secret anyone knows) is refused. 1 done, -1 refused or failed. The shared secret
// exists only in secure big numbers and a stack buffer, all cleansed before returning.
static inline int pwtui_ssl_dh1024_session_key(
    const unsigned char *exponent, size_t exponentLength, const unsigned char *peer, size_t peerLength,
    unsigned char *key) {
    if (exponentLength == 0 || exponentLength > 128 || peerLength == 0 || peerLength > 512) return -1;
    BIGNUM *p = BN_get_rfc2409_prime_1024(NULL);
    BIGNUM *limit = BN_new();
    BIGNUM *x = BN_secure_new();
    BIGNUM *y = BN_new();
    BIGNUM *shared = BN_secure_new();
    BN_CTX *context = BN_CTX_secure_new();
    EVP_KDF *kdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
    EVP_KDF_CTX *derivation = kdf != NULL ? EVP_KDF_CTX_new(kdf) : NULL;
    unsigned char padded[128];
    int result = -1;
    if (p != NULL && limit != NULL && x != NULL && y != NULL && shared != NULL && context != NULL
        && derivation != NULL && BN_copy(limit, p) != NULL && BN_sub_word(limit, 1) == 1
        && BN_bin2bn(exponent, (int)exponentLength, x) != NULL && BN_bin2bn(peer, (int)peerLength, y) != NULL
        && BN_cmp(y, BN_value_one()) > 0 && BN_cmp(y, limit) < 0
        && BN_mod_exp_mont_consttime(shared, y, x, p, context, NULL) == 1
        && BN_bn2binpad(shared, padded, (int)sizeof padded) == (int)sizeof padded) {
        OSSL_PARAM params[] = {
            OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, (char *)"SHA256", 0),
            OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, padded, sizeof padded),
            OSSL_PARAM_construct_end(),
        };
        if (EVP_KDF_derive(derivation, key, 16, params) == 1) result = 1;
    }
    OPENSSL_cleanse(padded, sizeof padded);
    EVP_KDF_CTX_free(derivation);
    EVP_KDF_free(kdf);
    BN_free(p);
    BN_free(limit);
    BN_clear_free(x);
    BN_free(y);
    BN_clear_free(shared);
    BN_CTX_free(context);
    ERR_clear_error();
    return result;
}

// AES-128-CBC encryption of in[0..<length] (a multiple of 16: the caller pads) into out (as
// long), no padding added here. 1 done, -1 failed.
static inline int pwtui_ssl_encrypt_aes128_cbc(
    const unsigned char *key, const unsigned char *iv, const unsigned char *in, size_t length, unsigned char *out) {
    if (length % 16 != 0 || length > (size_t)0x7fffffff) return -1;
    EVP_CIPHER_CTX *context = EVP_CIPHER_CTX_new();
    if (context == NULL) return -1;
    int result = -1;
    int outLength = 0, finalLength = 0;
    if (EVP_EncryptInit_ex(context, EVP_aes_128_cbc(), NULL, key, iv) == 1
        && EVP_CIPHER_CTX_set_padding(context, 0) == 1
        && EVP_EncryptUpdate(context, out, &outLength, in, (int)length) == 1
        && EVP_EncryptFinal_ex(context, out + outLength, &finalLength) == 1
        && (size_t)(outLength + finalLength) == length)
        result = 1;
    EVP_CIPHER_CTX_free(context);
    ERR_clear_error();
    return result;
}

#endif
