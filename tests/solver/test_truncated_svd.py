"""The search's leaves keep rank 16 of each value matrix: the randomised decomposition
gives the full SVD's truncation, and exactly what it leaves out."""

from __future__ import annotations

import numpy as np

from tavern_dice.strategy.liars_dice.solver.play.leaves import truncated_svd


def test_the_randomised_truncation_matches_the_full_svd_where_the_spectrum_decays() -> None:
    rng = np.random.default_rng(7)
    n, size = 6, 120
    # Singular values falling geometrically, as the leaves' do past the first few.
    u = np.linalg.qr(rng.standard_normal((n, size, size)))[0]
    v = np.linalg.qr(rng.standard_normal((n, size, size)))[0]
    s = 0.6 ** np.arange(size)
    m = (u * s) @ np.swapaxes(v, 1, 2)
    got_u, got_s, got_vt, left = truncated_svd(m, 16)
    full_u, full_s, full_vt = np.linalg.svd(m, full_matrices=False)
    exact = (full_u[:, :, :16] * full_s[:, None, :16]) @ full_vt[:, :16]
    assert np.allclose((got_u * got_s[:, None, :]) @ got_vt, exact, atol=1e-9)
    assert np.allclose(got_s, full_s[:, :16], rtol=1e-9)
    assert np.allclose(left, (full_s[:, 16:] ** 2).sum(axis=1), atol=1e-12)
    # What it leaves out is what the factors miss.
    residual = ((m - (got_u * got_s[:, None, :]) @ got_vt) ** 2).sum(axis=(1, 2))
    assert np.allclose(left, residual, atol=1e-12)


def test_a_small_matrix_gets_the_plain_svd() -> None:
    m = np.arange(24, dtype=np.float64).reshape(1, 4, 6)
    u, s, vt, left = truncated_svd(m, 16)
    assert np.allclose((u * s[:, None, :]) @ vt, m) and left[0] == 0.0
