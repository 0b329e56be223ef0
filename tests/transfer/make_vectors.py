# make_vectors.py: the expected values pasted into upload_test.cpp, computed independently of s3up:
# test::make_data re-implemented, the CRCs from their Rocksoft parameters (reference §5.1) as table-driven
# reflected CRCs, SHA via hashlib; FULL_OBJECT = the CRC of the whole object, COMPOSITE = the algorithm
# over the concatenated raw part digests, "-N" (reference §6.2).
# Usage: python3 make_vectors.py SIZE SEED PART_SIZE   (upload_test.cpp: 100000 5 32768)
import base64, hashlib, zlib, struct

def make_data(size, seed=1):
    out = bytearray(size)
    for i in range(size):
        x = (i * 2654435761 + seed * 40503) & 0xffffffff
        out[i] = ((x >> 13) ^ (x >> 24)) & 0xff
    return bytes(out)

def reflected_table(poly, width):
    mask = (1 << width) - 1
    table = []
    for b in range(256):
        c = b
        for _ in range(8):
            c = (c >> 1) ^ poly if c & 1 else c >> 1
        table.append(c & mask)
    return table

T32C = reflected_table(0x82F63B78, 32)
T64 = reflected_table(0x9A6C9329AC4BC9B5, 64)

def crc_reflected(data, table, width):
    mask = (1 << width) - 1
    c = mask
    for b in data:
        c = table[(c ^ b) & 0xff] ^ (c >> 8)
    return c ^ mask

def digest(alg, data):
    if alg == 'CRC32': return struct.pack('>I', zlib.crc32(data))
    if alg == 'CRC32C': return struct.pack('>I', crc_reflected(data, T32C, 32))
    if alg == 'CRC64NVME': return struct.pack('>Q', crc_reflected(data, T64, 64))
    if alg == 'SHA1': return hashlib.sha1(data).digest()
    if alg == 'SHA256': return hashlib.sha256(data).digest()

b64 = lambda d: base64.b64encode(d).decode()
# sanity: reference §5 check values for "123456789"
assert b64(digest('CRC32C', b'123456789')) == b64(struct.pack('>I', 0xE3069283))
assert digest('CRC64NVME', b'123456789') == struct.pack('>Q', 0xAE8B14860A799888)

import sys
size, seed, part = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
data = make_data(size, seed)
parts = [data[i:i+part] for i in range(0, size, part)]
print("parts", len(parts), [len(p) for p in parts])
for alg in ['CRC32', 'CRC32C', 'CRC64NVME', 'SHA1', 'SHA256']:
    full = b64(digest(alg, data))
    comp = b64(digest(alg, b''.join(digest(alg, p) for p in parts))) + '-%d' % len(parts)
    print(alg, 'FULL', full, 'COMPOSITE', comp)
print('md5', hashlib.md5(data).hexdigest())
