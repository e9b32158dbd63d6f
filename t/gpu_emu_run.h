/* SPDX-License-Identifier: MIT */
/* How t/gpu_emu.h runs the GPU threads of a launch, which it includes
 * after the state each thread owns (threadIdx, blockIdx, gpu_emu_tid,
 * gpu_emu_shfl_count, all GPU_EMU_OWN) and the sanitizer it is built with
 * (GPU_EMU_THREADS, GPU_EMU_ASAN), and before the block's state.
 *
 * As fibers, by default: one ucontext stack per GPU thread, all on the
 * calling thread, each running until it waits at a barrier and the next
 * then taking its turn, in thread order and the reverse by turns: a
 * missing barrier then lets a thread read a word another has not yet
 * written, or has already overwritten, whichever side of it the other
 * stands.  A barrier costs a context switch a thread, where an OS
 * thread's costs a futex wait and a wake (for blocks of 256 on two cores,
 * nine tenths of an emulated test's time).  A round in which every thread
 * waits and none arrives is a deadlock (a barrier some threads never
 * reach): it aborts, naming the block.
 *
 * As threads under ThreadSanitizer (GPU_EMU_THREADS): one std::thread per
 * GPU thread and std::barrier, so that TSan sees two threads touch one
 * word between barriers, a missing __syncthreads, as a race.  Fibers would
 * at best read stale data there, and report nothing.
 *
 * Under AddressSanitizer the fiber switches are annotated, so that it
 * knows which stack runs. */
#ifndef RB_T_GPU_EMU_RUN_H
#define RB_T_GPU_EMU_RUN_H

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <vector>

/* What a barrier's completion runs (the end of a block readies the next). */
struct gpu_emu_done {
    void (*fn)(void *) = nullptr;
    void *arg = nullptr;
    void operator()() noexcept
    {
        if (fn)
            fn(arg);
    }
};

#ifdef GPU_EMU_THREADS
#include <barrier>
#include <optional>
#include <thread>

/* std::barrier, which reset() makes anew for n threads. */
struct gpu_emu_barrier {
    std::optional<std::barrier<gpu_emu_done>> b;
    gpu_emu_done done;
    void reset(unsigned n) { b.emplace((std::ptrdiff_t)n, done); }
    void arrive_and_wait() { b->arrive_and_wait(); }
    void arrive_and_drop() { b->arrive_and_drop(); }
};

/* body(arg, t) for t < n, each on a thread of its own. */
static void gpu_emu_run(unsigned n, void (*body)(void *, unsigned), void *arg)
{
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < n; t++)
        threads.emplace_back([=] { body(arg, t); });
    for (std::thread &th : threads)
        th.join();
}

#else
#include <sys/mman.h>
#include <ucontext.h>
#ifdef GPU_EMU_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

/* A GPU thread: its context and stack, and its own state while another
 * runs. */
struct gpu_emu_fiber {
    ucontext_t ctx;
    char *stack;
    gpu_emu_dim3 thread_idx, block_idx;
    unsigned tid, shfl_count;
    bool done;
    void *fake;                 /* ASan's fake stack, while switched away */
};

/* The fibers of the launch being run, the caller's context, what the
 * fibers run, and a count that moves whenever one arrives or ends. */
static struct {
    ucontext_t ctx;
    std::vector<gpu_emu_fiber> fibers;
    gpu_emu_fiber *cur;
    void (*body)(void *, unsigned);
    void *arg;
    unsigned long progress;
    const void *stack_bottom;   /* the caller's, for ASan */
    size_t stack_size;
} gpu_emu_sched;

/* A fiber's stack, over a guard page: four times what every emulated test
 * passed with under ASan's redzones (32 KB), and small, for ASan clears
 * its shadow, an eighth of it, at every switch (1 MB stacks made the
 * emulated tests ten times slower there). */
static constexpr size_t GPU_EMU_STACK = (size_t)128 << 10, GPU_EMU_GUARD = 4096;

static void gpu_emu_switch(ucontext_t *from, ucontext_t *to, void **fake, const void *bottom,
                           size_t size)
{
#ifdef GPU_EMU_ASAN
    __sanitizer_start_switch_fiber(fake, bottom, size);
#else
    (void)fake;
    (void)bottom;
    (void)size;
#endif
    swapcontext(from, to);
#ifdef GPU_EMU_ASAN
    __sanitizer_finish_switch_fiber(*fake, nullptr, nullptr);
#endif
}

/* The running fiber gives its turn back, keeping its own state. */
static void gpu_emu_yield()
{
    gpu_emu_fiber *f = gpu_emu_sched.cur;
    f->thread_idx = threadIdx;
    f->block_idx = blockIdx;
    f->shfl_count = gpu_emu_shfl_count;
    gpu_emu_switch(&f->ctx, &gpu_emu_sched.ctx, &f->fake, gpu_emu_sched.stack_bottom,
                   gpu_emu_sched.stack_size);
}

static void gpu_emu_fiber_main()
{
    gpu_emu_fiber *f = gpu_emu_sched.cur;
#ifdef GPU_EMU_ASAN
    __sanitizer_finish_switch_fiber(nullptr, &gpu_emu_sched.stack_bottom,
                                    &gpu_emu_sched.stack_size);
#endif
    gpu_emu_sched.body(gpu_emu_sched.arg, f->tid);
    f->done = true;
    gpu_emu_sched.progress++;
#ifdef GPU_EMU_ASAN
    __sanitizer_start_switch_fiber(nullptr, gpu_emu_sched.stack_bottom, gpu_emu_sched.stack_size);
#endif
    /* returning resumes uc_link, the scheduler */
}

/* A barrier of fibers: the last to arrive completes the phase; the others
 * give their turns until it has. */
struct gpu_emu_barrier {
    unsigned count = 0, pending = 0;
    unsigned long phase = 0;
    gpu_emu_done done;
    void reset(unsigned n) { count = pending = n; }
    void complete()
    {
        pending = count;
        phase++;
        done();
    }
    void arrive_and_wait()
    {
        const unsigned long p = phase;
        gpu_emu_sched.progress++;
        if (--pending == 0)
            complete();
        else
            while (phase == p)
                gpu_emu_yield();
    }
    void arrive_and_drop()
    {
        gpu_emu_sched.progress++;
        count--;
        if (--pending == 0)
            complete();
    }
};

/* body(arg, t) for t < n, each a fiber, round after round until all have
 * ended. */
static void gpu_emu_run(unsigned n, void (*body)(void *, unsigned), void *arg)
{
    auto &s = gpu_emu_sched;
    const size_t had = s.fibers.size();
    if (had < n) {
        s.fibers.resize(n);
        for (size_t t = had; t < n; t++) {
            void *p = mmap(nullptr, GPU_EMU_GUARD + GPU_EMU_STACK, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
            if (p == MAP_FAILED || mprotect(p, GPU_EMU_GUARD, PROT_NONE) != 0) {
                std::fprintf(stderr, "gpu_emu: no memory for %u thread stacks\n", n);
                std::abort();
            }
            s.fibers[t].stack = (char *)p + GPU_EMU_GUARD;
        }
    }
    s.body = body;
    s.arg = arg;
    for (unsigned t = 0; t < n; t++) {
        gpu_emu_fiber &f = s.fibers[t];
        getcontext(&f.ctx);
        f.ctx.uc_stack.ss_sp = f.stack;
        f.ctx.uc_stack.ss_size = GPU_EMU_STACK;
        f.ctx.uc_link = &s.ctx;
        makecontext(&f.ctx, gpu_emu_fiber_main, 0);
        f.tid = t;
        f.shfl_count = 0;
        f.done = false;
        f.thread_idx = { t % blockDim.x, t / blockDim.x, 0 };
        f.block_idx = {};
    }
    for (unsigned live = n, round = 0; live > 0; round++) {
        const unsigned long before = s.progress;
        live = 0;
        for (unsigned k = 0; k < n; k++) {
            gpu_emu_fiber &f = s.fibers[round % 2 ? n - 1 - k : k];
            if (f.done)
                continue;
            s.cur = &f;
            threadIdx = f.thread_idx;
            blockIdx = f.block_idx;
            gpu_emu_tid = f.tid;
            gpu_emu_shfl_count = f.shfl_count;
            void *fake = nullptr;
            gpu_emu_switch(&s.ctx, &f.ctx, &fake, f.stack, GPU_EMU_STACK);
            live += !f.done;
        }
        if (live > 0 && s.progress == before) {
            std::fprintf(stderr, "gpu_emu: block (%u, %u): %u threads wait at barriers the "
                         "others never reach\n", blockIdx.x, blockIdx.y, live);
            std::abort();
        }
    }
}
#endif

#endif
