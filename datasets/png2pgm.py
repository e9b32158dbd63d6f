# SPDX-License-Identifier: MIT
# An 8-bit, non-interlaced grey or RGB PNG to a binary PGM (P5, maxval 255):
# how the scikit-image photographs here were converted (README.md).
# Usage: python3 png2pgm.py IN.png OUT.pgm
import sys, struct, zlib
def decode(path):
    d = open(path, 'rb').read()
    assert d[:8] == b'\x89PNG\r\n\x1a\n'
    pos, idat = 8, b''
    while pos < len(d):
        n, = struct.unpack('>I', d[pos:pos+4]); t = d[pos+4:pos+8]; body = d[pos+8:pos+8+n]
        if t == b'IHDR':
            w, h, bd, ct, _, _, il = struct.unpack('>IIBBBBB', body)
            assert bd == 8 and il == 0 and ct in (0, 2)
        elif t == b'IDAT':
            idat += body
        pos += 12 + n
    ch = 1 if ct == 0 else 3
    raw = zlib.decompress(idat); stride = w * ch
    out, prev, k = [], bytearray(stride), 0
    for y in range(h):
        f = raw[k]; line = bytearray(raw[k+1:k+1+stride]); k += 1 + stride
        for i in range(stride):
            a = line[i-ch] if i >= ch else 0; b = prev[i]; c = prev[i-ch] if i >= ch else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c; pa, pb, pc = abs(p-a), abs(p-b), abs(p-c)
                pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pr) & 255
            else: assert f == 0
        out.append(bytes(line)); prev = line
    return w, h, ch, out
w, h, ch, rows = decode(sys.argv[1])
pix = bytearray()
for r in rows:
    if ch == 1: pix += r
    else:
        for x in range(w):
            R, G, B = r[3*x], r[3*x+1], r[3*x+2]
            # scikit-image's rgb2gray weights (ITU-R BT.709 luma), rounded half up
            pix.append(min(255, int((2125*R + 7154*G + 721*B) / 10000 + 0.5)))
open(sys.argv[2], 'wb').write(b'P5\n%d %d\n255\n' % (w, h) + bytes(pix))
