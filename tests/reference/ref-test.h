/* gst-cudafx: what the CPU references' own tests share: a check that
 * counts failures (in the test file's `failures`) and a small PRNG whose
 * state each test keeps, so every test draws the same numbers every run. */
#ifndef CFX_REF_TEST_H
#define CFX_REF_TEST_H

#include <stdint.h>
#include <stdio.h>

#define CHECK(cond, ...) \
  do { \
    if (!(cond)) { \
      fprintf (stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
      fprintf (stderr, __VA_ARGS__); \
      fprintf (stderr, "\n"); \
      failures++; \
    } \
  } while (0)

/* xorshift32: fast, deterministic, good enough for test content */
static inline uint32_t
cfx_ref_xorshift32 (uint32_t * state)
{
  *state ^= *state << 13;
  *state ^= *state >> 17;
  *state ^= *state << 5;
  return *state;
}

#endif
