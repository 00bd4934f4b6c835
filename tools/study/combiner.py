"""Fits the learned-combiner study's model (tools/study/combiner.ts): a gradient-boosted classifier
(scikit-learn's HistGradientBoostingClassifier, Debian's python3-sklearn) over the default's features.

Usage: python3 combiner.py DIR
DIR holds, per window (older, A): <window>.f32 (float32 features, row-major, NFEATURES columns),
<window>.lab (uint8 labels) and <window>.grp (int32 target ids, for folds). Writes <window>.<setting>.p
(float32 probabilities): for the older window out of fold (5 folds by target, so no target is scored by
a model that saw it), for window A from a model fitted on the whole older window.
"""
import sys

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier

NFEATURES = int(open(f"{sys.argv[1]}/nfeatures").read())
SETTINGS = {
    "small": dict(max_iter=100, learning_rate=0.1, max_leaf_nodes=15, min_samples_leaf=200),
    "large": dict(max_iter=300, learning_rate=0.05, max_leaf_nodes=31, min_samples_leaf=100),
}


def read(directory, window):
    x = np.fromfile(f"{directory}/{window}.f32", dtype=np.float32).reshape(-1, NFEATURES)
    y = np.fromfile(f"{directory}/{window}.lab", dtype=np.uint8)
    g = np.fromfile(f"{directory}/{window}.grp", dtype=np.int32)
    return x, y, g


def main():
    directory = sys.argv[1]
    x_old, y_old, g_old = read(directory, "older")
    x_a, _, _ = read(directory, "A")
    for name, params in SETTINGS.items():
        oof = np.zeros(len(y_old), dtype=np.float32)
        fold = g_old % 5
        for k in range(5):
            model = HistGradientBoostingClassifier(random_state=0, **params)
            model.fit(x_old[fold != k], y_old[fold != k])
            oof[fold == k] = model.predict_proba(x_old[fold == k])[:, 1]
        oof.tofile(f"{directory}/older.{name}.p")
        model = HistGradientBoostingClassifier(random_state=0, **params)
        model.fit(x_old, y_old)
        model.predict_proba(x_a)[:, 1].astype(np.float32).tofile(f"{directory}/A.{name}.p")
        print(f"{name}: fitted on {len(y_old)} rows ({int(y_old.sum())} confirmed)", flush=True)


main()
