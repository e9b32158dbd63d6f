/* SPDX-License-Identifier: MIT */
/* The warp of t/gpu_emu.h against what the hardware does, at the width it
 * is built for (GPU_EMU_WAVE 32: NVIDIA's warps and CUDA's intrinsics; 64:
 * AMD's gfx9 wavefronts and HIP's, as hipcc 5.2's amd_warp_functions.h
 * and amd_device_functions.h define them): which lane each shuffle reads,
 * in segments of a width and across lane 31, the ballot's type and bits,
 * lanes a short last warp lacks and lanes that have returned.  The kernel
 * tests at both widths rest on these. */
#include "t/gpu_emu.h"
#include "kernels/cuda/rb_warp.cuh"

#include <cstdint>
#include <vector>
#include "t/tap.h"

#define W GPU_EMU_WAVE

/* Per thread of one block of `threads`: f(lane) through the callable. */
template <typename F> static std::vector<long long> per_thread(unsigned threads, F f)
{
    std::vector<long long> out(threads, -1);
    gpu_emu_launch(1, 1, threads, [&] { out[threadIdx.x] = f(threadIdx.x % W); });
    return out;
}

/* Whether out[t] == want(t % W, t / W) for every thread t. */
template <typename F> static bool all_lanes(const std::vector<long long> &out, F want)
{
    for (size_t t = 0; t < out.size(); t++)
        if (out[t] != want((int)(t % W), (int)(t / W))) {
            tap_diag("thread %zu: got %lld, want %lld", t, out[t], want((int)(t % W), (int)(t / W)));
            return false;
        }
    return true;
}

/* The shuffles of the width's own forms (through rb_warp.cuh's, which the
 * kernels call), full and in segments of 16. */
static void shuffles()
{
    auto down = per_thread(2 * W, [](int l) { return rb_shfl_down(l + 100, 1); });
    tap_ok(all_lanes(down, [](int l, int) { return l == W - 1 ? l + 100 : l + 101; }),
           "shfl_down by 1 over %d lanes: lane 31 reads lane 32 only on a wave of 64", W);
    auto up = per_thread(2 * W, [](int l) { return rb_shfl_up(l + 100, 3); });
    tap_ok(all_lanes(up, [](int l, int) { return l < 3 ? l + 100 : l + 97; }),
           "shfl_up by 3: the first 3 lanes keep their own");
    auto x32 = per_thread(W, [](int l) { return rb_shfl_xor(l, 32); });
    tap_ok(all_lanes(x32, [](int l, int) { return W == 64 ? l ^ 32 : l; }),
           "shfl_xor 32: the other half of a wave of 64, else the caller's own");
#if W == 64
    auto seg = per_thread(W, [](int l) { return __shfl_down(l, 1, 16); });
    auto any = per_thread(W, [](int l) { return __shfl(l, l + 65); });
#else
    auto seg = per_thread(W, [](int l) { return __shfl_down_sync(~0u, l, 1, 16); });
    auto any = per_thread(W, [](int l) { return __shfl_sync(~0u, l, l + 33); });
#endif
    tap_ok(all_lanes(seg, [](int l, int) { return l % 16 == 15 ? l : l + 1; }),
           "shfl_down by 1 in segments of 16: a segment's last lane keeps its own");
    tap_ok(all_lanes(any, [](int l, int) { return (l + 1) % W; }),
           "indexed shuffle from lane + %d: lane + 1 (HIP: modulo 64; CUDA: modulo the width)",
           W + 1);
}

/* Ballots: the mask's width, each lane's bit, and what the 32-bit popcount
 * makes of a wave's mask. */
static void ballots()
{
#if W == 64
    static_assert(sizeof(__ballot(0)) == 8, "HIP's ballot is 64 bits on gfx9");
    auto mask = per_thread(W, [](int l) { return (long long)__ballot(l % 3 == 0); });
    auto pc = per_thread(W, [](int) { return (long long)__popc(__ballot(1)); });
    auto pcll = per_thread(W, [](int) { return (long long)__popcll(__ballot(1)); });
#else
    static_assert(sizeof(__ballot_sync(0, 0)) == 4, "CUDA's ballot is 32 bits");
    auto mask = per_thread(W, [](int l) { return (long long)__ballot_sync(~0u, l % 3 == 0); });
    auto pc = per_thread(W, [](int) { return (long long)__popc(__ballot_sync(~0u, 1)); });
    auto pcll = per_thread(W, [](int) { return (long long)__popcll(__ballot_sync(~0u, 1)); });
#endif
    long long want = 0;
    for (int l = 0; l < W; l += 3)
        want |= 1ll << l;
    tap_ok(all_lanes(mask, [&](int, int) { return want; }),
           "ballot of lane %% 3 == 0 over %d lanes: %#llx", W, want);
    tap_ok(all_lanes(pc, [](int, int) { return 32; }) &&
               all_lanes(pcll, [](int, int) { return W; }),
           "__popc of a full ballot counts 32 lanes, __popcll %d", W);
}

/* A block of 80 threads: the last warp has 16 (W 32) or 16 of 64 lanes.
 * Lanes it lacks vote 0; a shuffle from one gives 0 on AMD, the caller's
 * own on NVIDIA. */
static void short_warp()
{
    auto down = per_thread(80, [](int l) { return rb_shfl_down(l + 100, 1); });
    tap_ok(all_lanes(down, [](int l, int w) {
               const bool missing = w * W + l + 1 >= 80 && l + 1 < W;
               return missing ? (W == 64 ? 0 : l + 100) : l == W - 1 ? l + 100 : l + 101;
           }),
           "shfl_down past the block's last thread: %s", W == 64 ? "0" : "the caller's own");
#if W == 64
    auto all = per_thread(80, [](int) { return (long long)__ballot(1); });
#else
    auto all = per_thread(80, [](int) { return (long long)__ballot_sync(~0u, 1); });
#endif
    tap_ok(all_lanes(all, [](int, int w) { return w == 80 / W ? (1ll << (80 % W)) - 1
                                                              : (long long)(~0ull >> (64 - W)); }),
           "ballot of a short last warp: its 16 lanes only");
}

/* Lanes `keep` and up of each warp return at once; the others vote and
 * shuffle, then pass a __syncthreads, which the returned lanes no longer
 * hold up. */
static void returned_lanes()
{
    const int keep = W == 64 ? 40 : 16;
    std::vector<long long> mask(2 * W, -1), got(2 * W, -1);
    gpu_emu_launch(1, 1, 2 * W, [&] {
        const int t = (int)threadIdx.x;
        if (t % W >= keep)
            return;
#if W == 64
        mask[t] = (long long)__ballot(1);
#else
        mask[t] = (long long)__ballot_sync(~0u, 1);
#endif
        got[t] = rb_shfl_down(t + 100, 1);
        __syncthreads();
    });
    bool ok = true;
    for (int t = 0; t < 2 * W; t++) {
        const int l = t % W;
        const long long m = l < keep ? (1ll << keep) - 1 : -1;
        const long long g = l >= keep ? -1 : l + 1 < keep ? t + 101 : W == 64 ? 0 : t + 100;
        ok = ok && mask[t] == m && got[t] == g;
    }
    tap_ok(ok, "lanes %d.. of each warp returned: out of its ballots, their shuffles %s", keep,
           W == 64 ? "0" : "the caller's own");
}

int main(void)
{
    tap_plan(10);
    tap_diag("warps of %d lanes (RB_WARP %d)", W, RB_WARP);
    shuffles();
    ballots();
    short_warp();
    returned_lanes();
    return tap_done();
}
