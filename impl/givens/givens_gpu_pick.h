/* SPDX-License-Identifier: MIT */
/* Choosing a fused kernel instantiation from the case's run-time slots (B):
 * the kernels are templates, built for B in 1, 2, 4, 8 (and 16 where the
 * caller asks).  C++ (.cu and .hip files) only. */
#ifndef GIVENS_GPU_PICK_H
#define GIVENS_GPU_PICK_H

#include <type_traits>

/* make(std::integral_constant<int, B>()) for the B equal to slots; a
 * value-initialised result (null kernels) for any other slots. */
template <bool WITH16 = false, class Make>
static auto givens_pick_slots(int slots, Make make)
    -> decltype(make(std::integral_constant<int, 1>()))
{
    switch (slots) {
    case 1: return make(std::integral_constant<int, 1>());
    case 2: return make(std::integral_constant<int, 2>());
    case 4: return make(std::integral_constant<int, 4>());
    case 8: return make(std::integral_constant<int, 8>());
    case 16:
        if constexpr (WITH16)
            return make(std::integral_constant<int, 16>());
        break;
    }
    return {};
}

#endif
