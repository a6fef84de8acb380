#!/usr/bin/env python3
"""plot-bench.py: PNG plots of the collective benchmarks' CSV files, standard library only.

usage: scripts/plot-bench.py [-n NPES] [-o OUT_DIR] [--note TEXT] CSV_OR_DIR...

Reads the rows "test,bytes,npes,usec" that scripts/bench-fabric.sh and bench-coll.sh
collect, one file per configuration (NAME.csv: the series NAME; a directory stands for
its *.csv but run.csv), keeps the best (smallest) time of the rounds, and draws one PNG
per collective at NPES PEs (default: the largest count present): time per call against
the message size, both axes logarithmic, a line per configuration, a legend by colour.
Writes OUT_DIR/TEST-NPES.png (default OUT_DIR: the first directory given, or .).  Tests
measured at one size only (barriers) have no plot.
"""
import argparse
import math
import os
import struct
import sys
import zlib

# 5x7 bitmap font: per glyph, seven rows of five bits (16 = the leftmost pixel)
FONT = {
    '0': (14, 17, 19, 21, 25, 17, 14), '1': (4, 12, 4, 4, 4, 4, 14),
    '2': (14, 17, 1, 2, 4, 8, 31), '3': (31, 2, 4, 2, 1, 17, 14),
    '4': (2, 6, 10, 18, 31, 2, 2), '5': (31, 16, 30, 1, 1, 17, 14),
    '6': (6, 8, 16, 30, 17, 17, 14), '7': (31, 1, 2, 4, 8, 8, 8),
    '8': (14, 17, 17, 14, 17, 17, 14), '9': (14, 17, 17, 15, 1, 2, 12),
    'a': (0, 0, 14, 1, 15, 17, 15), 'b': (16, 16, 22, 25, 17, 17, 30),
    'c': (0, 0, 14, 16, 16, 17, 14), 'd': (1, 1, 13, 19, 17, 17, 15),
    'e': (0, 0, 14, 17, 31, 16, 14), 'f': (6, 9, 8, 28, 8, 8, 8),
    'g': (0, 15, 17, 17, 15, 1, 14), 'h': (16, 16, 22, 25, 17, 17, 17),
    'i': (4, 0, 12, 4, 4, 4, 14), 'j': (2, 0, 6, 2, 2, 18, 12),
    'k': (16, 16, 18, 20, 24, 20, 18), 'l': (12, 4, 4, 4, 4, 4, 14),
    'm': (0, 0, 26, 21, 21, 17, 17), 'n': (0, 0, 22, 25, 17, 17, 17),
    'o': (0, 0, 14, 17, 17, 17, 14), 'p': (0, 0, 30, 17, 30, 16, 16),
    'q': (0, 0, 13, 19, 15, 1, 1), 'r': (0, 0, 22, 25, 16, 16, 16),
    's': (0, 0, 14, 16, 14, 1, 30), 't': (8, 8, 28, 8, 8, 9, 6),
    'u': (0, 0, 17, 17, 17, 19, 13), 'v': (0, 0, 17, 17, 17, 10, 4),
    'w': (0, 0, 17, 17, 21, 21, 10), 'x': (0, 0, 17, 10, 4, 10, 17),
    'y': (0, 0, 17, 17, 15, 1, 14), 'z': (0, 0, 31, 2, 4, 8, 31),
    '-': (0, 0, 0, 31, 0, 0, 0), '_': (0, 0, 0, 0, 0, 0, 31),
    '.': (0, 0, 0, 0, 0, 12, 12), ',': (0, 0, 0, 0, 12, 4, 8),
    '/': (0, 1, 2, 4, 8, 16, 0), '(': (2, 4, 8, 8, 8, 4, 2),
    ')': (8, 4, 2, 2, 2, 4, 8), '=': (0, 0, 31, 0, 31, 0, 0),
    ':': (0, 12, 12, 0, 12, 12, 0), ' ': (0,) * 7,
}
COLOURS = [(31, 119, 180), (214, 39, 40), (44, 160, 44), (255, 127, 14), (148, 103, 189),
           (140, 86, 75), (227, 119, 194), (23, 190, 207), (127, 127, 127), (188, 189, 34)]
W, H = 800, 500
LEFT, RIGHT, TOP, BOTTOM = 80, 640, 40, 440  # the plot area; the legend right of it


class Canvas:
    def __init__(self, w, h):
        self.w, self.h = w, h
        self.px = bytearray(b'\xff' * (w * h * 3))

    def dot(self, x, y, c):
        if 0 <= x < self.w and 0 <= y < self.h:
            i = (y * self.w + x) * 3
            self.px[i:i + 3] = bytes(c)

    def rect(self, x0, y0, x1, y1, c):
        for y in range(y0, y1 + 1):
            for x in range(x0, x1 + 1):
                self.dot(x, y, c)

    def line(self, x0, y0, x1, y1, c, width=1):
        n = max(abs(x1 - x0), abs(y1 - y0), 1)
        for i in range(n + 1):
            x = round(x0 + (x1 - x0) * i / n)
            y = round(y0 + (y1 - y0) * i / n)
            self.rect(x - width // 2, y - width // 2, x + (width - 1) // 2, y + (width - 1) // 2, c)

    def text(self, x, y, s, c=(0, 0, 0), scale=1, anchor='l'):
        """s at (x, y), its top edge; anchor l, c or r: x is its left end, middle or right end."""
        s = s.lower()
        width = 6 * scale * len(s) - scale
        x -= {'l': 0, 'c': width // 2, 'r': width}[anchor]
        for ch in s:
            for row, bits in enumerate(FONT.get(ch, FONT[' '])):
                for col in range(5):
                    if bits & (16 >> col):
                        self.rect(x + col * scale, y + row * scale,
                                  x + (col + 1) * scale - 1, y + (row + 1) * scale - 1, c)
            x += 6 * scale

    def png(self, path):
        raw = b''.join(b'\0' + bytes(self.px[y * self.w * 3:(y + 1) * self.w * 3])
                       for y in range(self.h))

        def chunk(kind, data):
            body = kind + data
            return struct.pack('>I', len(data)) + body + struct.pack('>I', zlib.crc32(body))
        with open(path, 'wb') as f:
            f.write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', self.w, self.h,
                                                                         8, 2, 0, 0, 0)) +
                    chunk(b'IDAT', zlib.compress(raw, 9)) + chunk(b'IEND', b''))


def size_label(b):
    for unit, div in (('m', 1 << 20), ('k', 1 << 10)):
        if b >= div and b % div == 0:
            return '%d%s' % (b // div, unit)
    return str(b)


def read(paths):
    """{series: {(test, npes): {bytes: best usec}}}, the series in the order given"""
    data = {}
    for path in paths:
        name = os.path.basename(path)[:-len('.csv')]
        series = data.setdefault(name, {})
        with open(path) as f:
            for line in f:
                p = line.strip().split(',')
                if len(p) != 4 or not p[1].isdigit():
                    continue  # a header, a broken line
                test = 'team_sync' if p[0] == 'barrier_aset' else p[0]
                pts = series.setdefault((test, int(p[2])), {})
                b, t = int(p[1]), float(p[3])
                pts[b] = min(t, pts.get(b, t))
    return {k: v for k, v in data.items() if v}


def plot(test, npes, lines, note, path):
    """lines: [(series, {bytes: usec})] with two sizes or more each"""
    xs = [b for _, pts in lines for b in pts]
    ys = [t for _, pts in lines for t in pts.values()]
    x0, x1 = math.log2(min(xs)), math.log2(max(xs))
    y0, y1 = math.log10(min(ys)), math.log10(max(ys))
    pad = max(y1 - y0, 0.3) * 0.08
    y0, y1 = y0 - pad, y1 + pad

    def X(b):
        return round(LEFT + (math.log2(b) - x0) / (x1 - x0) * (RIGHT - LEFT))

    def Y(t):
        return round(BOTTOM - (math.log10(t) - y0) / (y1 - y0) * (BOTTOM - TOP))
    c = Canvas(W, H)
    grid, axis = (225, 225, 225), (0, 0, 0)
    # x ticks: powers of two, spaced at least 40 pixels apart
    step = 1
    while (RIGHT - LEFT) * step / max(x1 - x0, 1) < 40:
        step *= 2
    for e in range(math.ceil(x0), math.floor(x1) + 1):
        if e % step == 0:
            x = X(2 ** e)
            c.line(x, TOP, x, BOTTOM, grid)
            c.line(x, BOTTOM, x, BOTTOM + 4, axis)
            c.text(x, BOTTOM + 8, size_label(2 ** e), scale=2, anchor='c')
    # y ticks: 1, 2 and 5 times the powers of ten (only the powers where they are crowded)
    marks = (1, 2, 5) if y1 - y0 < 3 else (1,)
    for e in range(math.floor(y0), math.ceil(y1) + 1):
        for m in marks:
            t = m * 10.0 ** e
            if y0 <= math.log10(t) <= y1:
                y = Y(t)
                c.line(LEFT, y, RIGHT, y, grid)
                c.line(LEFT - 4, y, LEFT, y, axis)
                c.text(LEFT - 8, y - 7, '%g' % t, scale=2, anchor='r')
    c.line(LEFT, TOP, LEFT, BOTTOM, axis)
    c.line(LEFT, BOTTOM, RIGHT, BOTTOM, axis)
    title = '%s, %d pes%s' % (test, npes, ', ' + note if note else '')
    c.text((LEFT + RIGHT) // 2, 12, title, scale=2, anchor='c')
    c.text((LEFT + RIGHT) // 2, BOTTOM + 34, 'bytes', scale=2, anchor='c')
    c.text(8, TOP - 22, 'usec per call', scale=2)
    for i, (name, pts) in enumerate(lines):
        col = COLOURS[i % len(COLOURS)]
        pos = [(X(b), Y(pts[b])) for b in sorted(pts)]
        for (xa, ya), (xb, yb) in zip(pos, pos[1:]):
            c.line(xa, ya, xb, yb, col, width=2)
        for x, y in pos:
            c.rect(x - 3, y - 3, x + 3, y + 3, col)
        ly = TOP + 10 + 26 * i
        c.rect(RIGHT + 20, ly, RIGHT + 40, ly + 12, col)
        c.text(RIGHT + 48, ly - 1, name, scale=2)
    c.png(path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n', 2)[2],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('-n', '--npes', type=int, help='PE count to plot (default: the largest)')
    ap.add_argument('-o', '--out', help='directory for the PNG files')
    ap.add_argument('--note', default='', help='added to each title (e.g. "best of 3")')
    ap.add_argument('inputs', nargs='+', metavar='CSV_OR_DIR')
    a = ap.parse_args()
    paths = []
    for p in a.inputs:
        if os.path.isdir(p):
            paths += sorted(os.path.join(p, f) for f in os.listdir(p)
                            if f.endswith('.csv') and f != 'run.csv')
        elif os.path.isfile(p):
            paths.append(p)
        else:
            sys.exit('plot-bench: no such file or directory: ' + p)
    out = a.out or next((p for p in a.inputs if os.path.isdir(p)), '.')
    data = read(paths)
    if not data:
        sys.exit('plot-bench: no rows "test,bytes,npes,usec" in ' + ' '.join(a.inputs))
    npes = a.npes or max(n for s in data.values() for _, n in s)
    tests = []
    for s in data.values():
        tests += [t for t, n in s if n == npes and t not in tests]
    os.makedirs(out, exist_ok=True)
    for test in tests:
        lines = [(name, {b: t for b, t in s.get((test, npes), {}).items() if b > 0})
                 for name, s in data.items()]
        lines = [(name, pts) for name, pts in lines if len(pts) >= 2]
        if lines:
            path = os.path.join(out, '%s-%d.png' % (test, npes))
            plot(test, npes, lines, a.note, path)
            print('plot-bench: ' + path, file=sys.stderr)


if __name__ == '__main__':
    main()
