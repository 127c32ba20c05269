/* See shm_sync.h. */
#include "algorithms/shm_sync.h"
#include "algorithms/clock_id.h"

#include <sched.h>
#include <time.h>

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

void shm_sync_wait(_Atomic uint64_t *v, uint64_t n, bool crowded)
{
	int looks = crowded ? 0 : SHM_SPIN_LOOKS;
	while (atomic_load_explicit(v, memory_order_acquire) < n) {
		if (looks > 0) {
			looks--;
			cpu_relax();
		} else {
			sched_yield();
		}
	}
}

static double now_us(void)
{
	return 1e6 * clock_local_s();
}

void shm_sync_wait_long(_Atomic uint64_t *v, uint64_t n)
{
	int looks = SHM_SPIN_LOOKS;
	while (looks-- > 0)
		if (atomic_load_explicit(v, memory_order_acquire) >= n)
			return;
		else
			cpu_relax();
	const double start = now_us();
	const struct timespec nap = {.tv_nsec = SHM_NAP_US * 1000};
	while (atomic_load_explicit(v, memory_order_acquire) < n) {
		if (now_us() - start < SHM_YIELD_US)
			sched_yield();
		else
			nanosleep(&nap, NULL);
	}
}

void shm_sync_barrier(struct shm_slot *const *slot, int count, int me, uint64_t n, bool crowded)
{
	atomic_store_explicit(&slot[me]->reached, n, memory_order_release);
	/* a peer ahead of us has reached n + 1 already: >=, not == */
	for (int i = 0; i < count; i++)
		shm_sync_wait(&slot[i]->reached, n, crowded);
}
