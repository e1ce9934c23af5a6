"""NonMaxSuppression: per batch entry and class, boxes above score_threshold in order of
score (ties: the lower index first) are kept unless their IoU with a box kept before is
above iou_threshold, at most max_output_boxes_per_class of them (0 or absent: none);
rows [batch, class, box] (int64). Boxes are [y1, x1, y2, x2] (corners in either order) or,
with center_point_box = 1, [x_centre, y_centre, width, height]. The IoU matrix of a batch
entry's boxes is computed at once; the greedy pass reads it."""
import numpy as np

from .base import Kernel


class NonMaxSuppression(Kernel):
    attrs = {"center_point_box": 0}
    n_inputs = (2, 5)

    def run(self, boxes, scores, max_out=None, iou=None, score_min=None, center_point_box=0):
        if boxes.ndim != 3 or scores.ndim != 3 or boxes.shape[2] != 4 or \
                boxes.shape[:2] != (scores.shape[0], scores.shape[2]):
            raise self.fail(f"boxes {list(boxes.shape)} and scores {list(scores.shape)} are not "
                            "[b, s, 4] and [b, c, s]")
        limit = 0 if max_out is None or np.size(max_out) == 0 else int(self.scalar(max_out))
        iou_max = 0.0 if iou is None or np.size(iou) == 0 else float(self.scalar(iou))
        rows = []
        for b in range(boxes.shape[0]):
            overlap = iou_matrix(boxes[b].astype(np.float64), center_point_box) > iou_max
            for c in range(scores.shape[1]):
                s = scores[b, c]
                cand = np.arange(s.shape[0])
                if score_min is not None and np.size(score_min):
                    cand = cand[s > self.scalar(score_min)]
                # by score, highest first; equal scores: the lower index first
                order = cand[np.lexsort((cand, -s[cand].astype(np.float64)))]
                kept: list[int] = []
                for i in order:
                    if len(kept) >= limit:
                        break
                    if not kept or not overlap[i, kept].any():
                        kept.append(int(i))
                rows += [(b, c, i) for i in kept]
        return np.array(rows, np.int64).reshape(-1, 3)


def iou_matrix(boxes: np.ndarray, center_point_box: int) -> np.ndarray:
    """[s, s] intersection over union; 0 where a box or the intersection is empty."""
    if center_point_box:
        x, y, w, h = boxes.T
        x1, x2, y1, y2 = x - w / 2, x + w / 2, y - h / 2, y + h / 2
    else:
        y1, x1, y2, x2 = boxes.T
        y1, y2 = np.minimum(y1, y2), np.maximum(y1, y2)
        x1, x2 = np.minimum(x1, x2), np.maximum(x1, x2)
    iw = np.minimum(x2[:, None], x2[None]) - np.maximum(x1[:, None], x1[None])
    ih = np.minimum(y2[:, None], y2[None]) - np.maximum(y1[:, None], y1[None])
    inter = np.where((iw > 0) & (ih > 0), iw * ih, 0.0)
    area = (x2 - x1) * (y2 - y1)
    union = area[:, None] + area[None] - inter
    ok = (inter > 0) & (area[:, None] > 0) & (area[None] > 0) & (union > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(ok, inter / np.where(ok, union, 1), 0.0)
