import PwtuiTestSupport
import Testing
import VaultCrypto

/// libsodium's own known answers for crypto_pwhash with Argon2id (test/default/pwhash_argon2id.c,
/// tv() entries 0, 4, 6 and 7 with the outputs of pwhash_argon2id.exp; repeated in
/// serokell/haskell-crypto's Pwhash.hs). The table's salts are 32 hex bytes but the C test uses
/// only the first 16; memory limits are in bytes, which libsodium turns into whole KiB.
@Suite struct Argon2idTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let name: String
        let password: String
        let salt: String
        let opsLimit: UInt32
        let memLimitBytes: Int
        let output: String
        var testDescription: String { name }
    }

    static let vectors: [Vector] = [
        Vector(
            name: "tv[4]",
            password:
                "4a857e2ee8aa9b6056f2424e84d24a72473378906ee04a46cb05311502d5250b82ad86b83c8f20a23dbb74f6da60b0b6ecffd67134d45946ac8ebfb3064294bc097d43ced68642bfb8bbbdd0f50b30118f5e",
            salt: "39d82eef32010b8b79cc5ba88ed539fb", opsLimit: 3, memLimitBytes: 1_432_947,
            output:
                "08d8cd330c57e1b4643241d05bb468ba4ee4e932cd0858816be9ef15360b27bbd06a87130ee92222be267a29b81f5ae8fe8613324cfc4832dc49387fd0602f1c57b4d0f3855db94fb7e12eb05f9a484aed4a4307abf586cd3d55c809bc081541e00b682772fb2066504ff935b8ebc551a2083882f874bc0fae68e56848ae34c91097c3bf0cca8e75c0797eef3efde3f75e005815018db3cf7c109a812264c4de69dcb22322dbbcfa447f5b00ecd1b04a7be1569c8e556adb7bba48adf81d"
        ),
        Vector(
            name: "tv[6]",
            password: "b540beb016a5366524d4605156493f9874514a5aa58818cd0c6dfffaa9e90205f17b",
            salt: "44071f6d181561670bda728d43fb79b4", opsLimit: 1, memLimitBytes: 1_631_659,
            output:
                "7fb72409b0987f8190c3729710e98c3f80c5a8727d425fdcde7f3644d467fe973f5b5fee683bd3fce812cb9ae5e9921a2d06c2f1905e4e839692f2b934b682f11a2fe2b90482ea5dd234863516dba6f52dc0702d324ec77d860c2e181f84472bd7104fedce071ffa93c5309494ad51623d214447a7b2b1462dc7d5d55a1f6fd5b54ce024118d86f0c6489d16545aaa87b6689dad9f2fb47fda9894f8e12b87d978b483ccd4cc5fd9595cdc7a818452f915ce2f7df95ec12b1c72e3788d473441d884f9748eb14703c21b45d82fd667b85f5b2d98c13303b3fe76285531a826b6fc0fe8e3dddecf"
        ),
        Vector(
            name: "tv[7]",
            password:
                "a14975c26c088755a8b715ff2528d647cd343987fcf4aa25e7194a8417fb2b4b3f7268da9f3182b4cfb22d138b2749d673a47ecc7525dd15a0a3c66046971784bb63d7eae24cc84f2631712075a10e10a96b0e0ee67c43e01c423cb9c44e5371017e9c496956b632158da3fe12addecb88912e6759bc37f9af2f45af72c5cae3b179ffb676a697de6ebe45cd4c16d4a9d642d29ddc0186a0a48cb6cd62bfc3dd229d313b301560971e740e2cf1f99a9a090a5b283f35475057e96d7064e2e0fc81984591068d55a3b4169f22cccb0745a2689407ea1901a0a766eb99",
            salt: "3d968b2752b8838431165059319f3ff8", opsLimit: 3, memLimitBytes: 1_784_128,
            output:
                "4e702bc5f891df884c6ddaa243aa846ce3c087fe930fef0f36b3c2be34164ccc295db509254743f18f947159c813bcd5dd8d94a3aec93bbe57605d1fad1aef1112687c3d4ef1cb329d21f1632f626818d766915d886e8d819e4b0b9c9307f4b6afc081e13b0cf31db382ff1bf05a16aac7af696336d75e99f82163e0f371e1d25c4add808e215697ad3f779a51a462f8bf52610af21fc69dba6b072606f2dabca7d4ae1d91d919"
        ),
        Vector(
            name: "tv[0]",
            password:
                "a347ae92bce9f80f6f595a4480fc9c2fe7e7d7148d371e9487d75f5c23008ffae065577a928febd9b1973a5a95073acdbeb6a030cfc0d79caa2dc5cd011cef02c08da232d76d52dfbca38ca8dcbd665b17d1665f7cf5fe59772ec909733b24de97d6f58d220b20c60d7c07ec1fd93c52c31020300c6c1facd77937a597c7a6",
            salt: "5541fbc995d5c197ba290346d2c559de", opsLimit: 5, memLimitBytes: 7_256_678,
            output:
                "18acec5d6507739f203d1f5d9f1d862f7c2cdac4f19d2bdff64487e60d969e3ced615337b9eec6ac4461c6ca07f0939741e57c24d0005c7ea171a0ee1e7348249d135b38f222e4dad7b9a033ed83f5ca27277393e316582033c74affe2566a2bea47f91f0fd9fe49ece7e1f79f3ad6e9b23e0277c8ecc4b313225748dd2a80f5679534a0700e246a79a49b3f74eb89ec6205fe1eeb941c73b1fcf1"
        ),
    ]

    @Test(arguments: vectors)
    func knownAnswer(_ vector: Vector) throws {
        let parameters = KDFParameters(opsLimit: vector.opsLimit, memLimitKiB: UInt32(vector.memLimitBytes / 1024))
        let output = try Argon2id().derive(
            password: try secure(hex(vector.password)), salt: hex(vector.salt),
            parameters: parameters, outputLength: vector.output.count / 2)
        #expect(hex(contents(output)) == vector.output)
    }

    @Test func differentPasswordsOrSaltsGiveDifferentKeys() throws {
        let small = KDFParameters(opsLimit: 1, memLimitKiB: 8)
        let salt = [UInt8](repeating: 7, count: 16)
        let a = try Argon2id().deriveKey(password: try secure(Array("a".utf8)), salt: salt, parameters: small)
        let b = try Argon2id().deriveKey(password: try secure(Array("b".utf8)), salt: salt, parameters: small)
        var otherSalt = salt
        otherSalt[15] = 8
        let c = try Argon2id().deriveKey(password: try secure(Array("a".utf8)), salt: otherSalt, parameters: small)
        let again = try Argon2id().deriveKey(password: try secure(Array("a".utf8)), salt: salt, parameters: small)
        #expect(a.count == 32)
        let aBEqual = a.isEqual(to: b)
        #expect(!aBEqual)
        let aCEqual = a.isEqual(to: c)
        #expect(!aCEqual)
        let aAgainEqual = a.isEqual(to: again)
        #expect(aAgainEqual)
    }

    @Test func emptyPasswordIsAccepted() throws {
        let key = try Argon2id().deriveKey(
            password: try SecureBytes(capacity: 0), salt: [UInt8](repeating: 1, count: 16),
            parameters: KDFParameters(opsLimit: 1, memLimitKiB: 8))
        #expect(key.count == 32)
    }

    @Test func malformedInputsAreRefused() throws {
        let password = try secure(Array("pw".utf8))
        #expect(throws: VaultCryptoError.self) {
            _ = try Argon2id().deriveKey(password: password, salt: [1, 2, 3], parameters: .interactive)
        }
        #expect(throws: VaultCryptoError.self) {
            _ = try Argon2id().deriveKey(
                password: password, salt: [UInt8](repeating: 0, count: 16),
                parameters: KDFParameters(opsLimit: 0, memLimitKiB: 8))
        }
    }

    @Test func presetsMeetTheWritingFloorAndBounds() {
        for preset in [KDFParameters.interactive, .moderate, .sensitive] {
            #expect(preset.isStrongEnoughToWrite)
            #expect(KDFParameters.Bounds.standard.admits(preset))
        }
        #expect(!KDFParameters(opsLimit: 2, memLimitKiB: 64 * 1024).isStrongEnoughToWrite)
        #expect(!KDFParameters(opsLimit: 3, memLimitKiB: 32 * 1024).isStrongEnoughToWrite)
        #expect(!KDFParameters.Bounds.standard.admits(KDFParameters(opsLimit: 11, memLimitKiB: 64 * 1024)))
        #expect(!KDFParameters.Bounds.standard.admits(KDFParameters(opsLimit: 3, memLimitKiB: 1024 * 1024 + 1)))
    }
}
