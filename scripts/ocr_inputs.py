#!/usr/bin/python3
"""Writes deterministic, text-like inputs for the PP-OCR models (scripts/models.sh,
scripts/bench-models.sh): dark lines of text drawn with a 5x7 bitmap font on a light,
slightly noisy page, normalized the way PaddleOCR feeds each model.

    /usr/bin/python3 scripts/ocr_inputs.py OUT_DIR
      det_x.npy      1x3x640x640 (ImageNet mean/std), a page with several text lines
      det_x_480x800.npy  1x3x480x800, a second size for the dynamic-size detector
      rec_x.npy      1x3x48x320  ((x/255 - 0.5) / 0.5), one text line
      cls_x.npy      1x3x48x192  (same normalization), one text line
Random noise would leave the detector's output near zero everywhere, which says
little about accuracy; text gives the models the activations they were trained on.
"""
import os
import sys

import numpy as np

FONT = {  # 5x7 glyphs, one string per row, '#' = ink
    "A": [" ### ", "#   #", "#   #", "#####", "#   #", "#   #", "#   #"],
    "B": ["#### ", "#   #", "#   #", "#### ", "#   #", "#   #", "#### "],
    "C": [" ####", "#    ", "#    ", "#    ", "#    ", "#    ", " ####"],
    "D": ["#### ", "#   #", "#   #", "#   #", "#   #", "#   #", "#### "],
    "E": ["#####", "#    ", "#    ", "#### ", "#    ", "#    ", "#####"],
    "H": ["#   #", "#   #", "#   #", "#####", "#   #", "#   #", "#   #"],
    "I": ["#####", "  #  ", "  #  ", "  #  ", "  #  ", "  #  ", "#####"],
    "L": ["#    ", "#    ", "#    ", "#    ", "#    ", "#    ", "#####"],
    "M": ["#   #", "## ##", "# # #", "#   #", "#   #", "#   #", "#   #"],
    "N": ["#   #", "##  #", "# # #", "#  ##", "#   #", "#   #", "#   #"],
    "O": [" ### ", "#   #", "#   #", "#   #", "#   #", "#   #", " ### "],
    "P": ["#### ", "#   #", "#   #", "#### ", "#    ", "#    ", "#    "],
    "R": ["#### ", "#   #", "#   #", "#### ", "# #  ", "#  # ", "#   #"],
    "S": [" ####", "#    ", "#    ", " ### ", "    #", "    #", "#### "],
    "T": ["#####", "  #  ", "  #  ", "  #  ", "  #  ", "  #  ", "  #  "],
    "W": ["#   #", "#   #", "#   #", "# # #", "# # #", "## ##", "#   #"],
    "X": ["#   #", "#   #", " # # ", "  #  ", " # # ", "#   #", "#   #"],
    "0": [" ### ", "#   #", "#  ##", "# # #", "##  #", "#   #", " ### "],
    "1": ["  #  ", " ##  ", "  #  ", "  #  ", "  #  ", "  #  ", " ### "],
    "2": [" ### ", "#   #", "    #", "   # ", "  #  ", " #   ", "#####"],
    "6": [" ### ", "#    ", "#    ", "#### ", "#   #", "#   #", " ### "],
    "U": ["#   #", "#   #", "#   #", "#   #", "#   #", "#   #", " ### "],
    "G": [" ####", "#    ", "#    ", "# ###", "#   #", "#   #", " ####"],
    " ": ["     "] * 7,
}


def render(text, scale):
    """A float image (1 = ink) of `text`, each font pixel `scale` x `scale`."""
    cols = []
    for ch in text:
        glyph = np.array([[1.0 if p == "#" else 0.0 for p in row] for row in FONT[ch]])
        cols += [glyph, np.zeros((7, 1))]
    img = np.concatenate(cols, axis=1)
    return np.kron(img, np.ones((scale, scale)))


def blur(img):
    p = np.pad(img, 1, mode="edge")
    return sum(p[i:i + img.shape[0], j:j + img.shape[1]] for i in range(3) for j in range(3)) / 9


def page(h, w, lines, rng):
    """RGB page in [0, 255]: light paper, dark text lines, mild noise."""
    ink = np.zeros((h, w))
    for text, scale, top, left in lines:
        t = render(text, scale)
        th, tw = min(t.shape[0], h - top), min(t.shape[1], w - left)
        ink[top:top + th, left:left + tw] = np.maximum(ink[top:top + th, left:left + tw], t[:th, :tw])
    ink = blur(ink)
    paper = np.array([236.0, 232.0, 224.0])
    color = np.array([30.0, 30.0, 40.0])
    rgb = paper[None, None, :] * (1 - ink[..., None]) + color[None, None, :] * ink[..., None]
    rgb += rng.normal(0, 4, rgb.shape)
    return np.clip(rgb, 0, 255)


def det_input(h, w, rng):
    lines = [("HELLO WEBNN", 4, 40, 30), ("OCR TEST 2026", 3, 130, 60), ("PADDLE DETECT", 5, 220, 20),
             ("MODEL DATA", 2, 300, 300), ("TEXT LINES", 3, 360, 90), ("BOX", 6, h - 120, w - 200)]
    img = page(h, w, lines, rng) / 255.0
    mean, std = np.array([0.485, 0.456, 0.406]), np.array([0.229, 0.224, 0.225])
    return ((img - mean) / std).transpose(2, 0, 1)[None].astype(np.float32)


def line_input(h, w, text, scale, rng):
    img = page(h, w, [(text, scale, (h - 7 * scale) // 2, 6)], rng) / 255.0
    return ((img - 0.5) / 0.5).transpose(2, 0, 1)[None].astype(np.float32)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(20261121)
    np.save(os.path.join(out, "det_x.npy"), det_input(640, 640, rng))
    np.save(os.path.join(out, "det_x_480x800.npy"), det_input(480, 800, rng))
    np.save(os.path.join(out, "rec_x.npy"), line_input(48, 320, "HELLO WEBNN 2026", 3, rng))
    np.save(os.path.join(out, "cls_x.npy"), line_input(48, 192, "OCR TEXT", 4, rng))


if __name__ == "__main__":
    main()
