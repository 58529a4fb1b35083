// CPython's Modules/_randommodule.c behaviour (init_genrand, init_by_array, genrand_uint32,
// random_random, getrandbits) and Lib/random.py's str seeding, reproduced from their
// documented algorithms.
#include "quadropolis/random.hpp"

#include <array>
#include <cstring>

namespace quadropolis {
namespace {

constexpr int N = Random::WORDS;
constexpr int M = 397;
constexpr uint32_t MATRIX_A = 0x9908b0dfU;
constexpr uint32_t UPPER_MASK = 0x80000000U;
constexpr uint32_t LOWER_MASK = 0x7fffffffU;

// init_genrand(19650218), where every init_by_array starts: the same 624 words each time, so
// computed once at compile time.
constexpr std::array<uint32_t, N> initial_words() {
    std::array<uint32_t, N> mt{};
    mt[0] = 19650218U;
    for (int i = 1; i < N; i++) mt[i] = 1812433253U * (mt[i - 1] ^ (mt[i - 1] >> 30)) + static_cast<uint32_t>(i);
    return mt;
}
constexpr std::array<uint32_t, N> INITIAL = initial_words();

// CPython's init_by_array, for a key of any length (longer than N words: the general loop).
// (The general loop, for keys of N words or more; shorter ones go through Random::mix.)
void init_by_array_words(uint32_t* mt, const uint32_t* key, size_t length) {
    std::memcpy(mt, INITIAL.data(), sizeof(uint32_t) * N);
    size_t i = 1, j = 0;
    for (size_t k = length; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] + static_cast<uint32_t>(j);
        i++;
        j++;
        if (i >= static_cast<size_t>(N)) {
            mt[0] = mt[N - 1];
            i = 1;
        }
        if (j >= length) j = 0;
    }
    for (size_t k = N - 1; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - static_cast<uint32_t>(i);
        i++;
        if (i >= static_cast<size_t>(N)) {
            mt[0] = mt[N - 1];
            i = 1;
        }
    }
    mt[0] = 0x80000000U;
}

}  // namespace

// init_by_array's two mixing passes for COUNT generators whose keys have the same length
// (under N words), in lockstep. Each chain's last word stays in a register (reading it back
// from memory added a store-forwarding delay to every step of the chain), the first pass
// reads init_genrand(19650218)'s words from the compile-time table instead of a copy, the
// generators' words and keys sit at fixed strides from one base (no pointer per generator to
// keep in registers), and the chains are independent, so the CPU overlaps them. Step for step
// CPython's loops: the first pass runs N steps (i = 1..N-1, then i = 1 again after the wrap),
// the second N-1 steps (i = 2..N-1, then i = 1); mt[0] is only ever read as the word before
// mt[1] (the register).
template <int COUNT>
void Random::mix(Random* g, const uint32_t (*keys)[KEY_WORDS], size_t length) {
    uint32_t prev[COUNT];
    for (int k = 0; k < COUNT; k++) prev[k] = INITIAL[0];
    size_t j = 0;
    for (int i = 1; i < N; i++) {
        const uint32_t add = static_cast<uint32_t>(j);
        for (int k = 0; k < COUNT; k++) {
            prev[k] = (INITIAL[i] ^ ((prev[k] ^ (prev[k] >> 30)) * 1664525U)) + keys[k][j] + add;
            g[k].mt_[i] = prev[k];
        }
        if (++j >= length) j = 0;
    }
    for (int k = 0; k < COUNT; k++) {
        prev[k] = (g[k].mt_[1] ^ ((prev[k] ^ (prev[k] >> 30)) * 1664525U)) + keys[k][j] + static_cast<uint32_t>(j);
        g[k].mt_[1] = prev[k];
    }
    for (int i = 2; i < N; i++)
        for (int k = 0; k < COUNT; k++) {
            prev[k] = (g[k].mt_[i] ^ ((prev[k] ^ (prev[k] >> 30)) * 1566083941U)) - static_cast<uint32_t>(i);
            g[k].mt_[i] = prev[k];
        }
    for (int k = 0; k < COUNT; k++) {
        g[k].mt_[1] = (g[k].mt_[1] ^ ((prev[k] ^ (prev[k] >> 30)) * 1566083941U)) - 1U;
        g[k].mt_[0] = 0x80000000U;
        g[k].index_ = N;
        g[k].twisted_ = N;
    }
}

void Random::init_by_array(const uint32_t* key, size_t length) {
    if (length <= KEY_WORDS) {
        uint32_t padded[1][KEY_WORDS];
        std::memcpy(padded[0], key, length * sizeof(uint32_t));
        mix<1>(this, padded, length);
        return;
    }
    init_by_array_words(mt_, key, length);
    index_ = N;
    twisted_ = N;
}

void Random::seed_int(uint64_t magnitude) {
    // Python: the 32-bit words of abs(n), least significant first; 0 is one zero word.
    uint32_t key[2] = {static_cast<uint32_t>(magnitude), static_cast<uint32_t>(magnitude >> 32)};
    init_by_array(key, key[1] ? 2 : 1);
}

void Random::seed_signed(int64_t n) {
    seed_int(n < 0 ? uint64_t{0} - static_cast<uint64_t>(n) : static_cast<uint64_t>(n));
}

// The key of a str seed (version 2): the big-endian integer of text + sha512(text) as 32-bit
// words, least significant first, without leading zero words. Returns the word count.
size_t Random::text_key(const char* text, size_t length, uint32_t* key) {
    unsigned char bytes[MAX_TEXT + 64];
    if (length) std::memcpy(bytes, text, length);
    sha512(reinterpret_cast<const unsigned char*>(text), length, bytes + length);
    size_t words = 0;
    for (size_t end = length + 64; end > 0;) {
        const size_t start = end >= 4 ? end - 4 : 0;
        uint32_t w = 0;
        for (size_t b = start; b < end; b++) w = (w << 8) | bytes[b];
        key[words++] = w;
        end = start;
    }
    while (words > 1 && key[words - 1] == 0) words--;
    return words;
}

bool Random::seed_text(const char* text, size_t length) {
    if (length > MAX_TEXT) return false;
    uint32_t key[1][KEY_WORDS];
    mix<1>(this, key, text_key(text, length, key[0]));
    return true;
}

bool Random::seed_texts(Random* generators, const char* const* texts, const size_t* lengths, int count) {
    using Mixer = void (*)(Random*, const uint32_t (*)[KEY_WORDS], size_t);
    static constexpr Mixer MIXERS[MAX_BATCH] = {mix<1>, mix<2>, mix<3>, mix<4>, mix<5>, mix<6>, mix<7>, mix<8>};
    static_assert(MAX_BATCH == 8, "one mixer per batch size");
    if (count < 1 || count > MAX_BATCH) return false;
    for (int g = 0; g < count; g++)
        if (lengths[g] > MAX_TEXT) return false;
    uint32_t keys[MAX_BATCH][KEY_WORDS];
    size_t key_words[MAX_BATCH];
    bool same_length = true;
    for (int g = 0; g < count; g++) {
        key_words[g] = text_key(texts[g], lengths[g], keys[g]);  // at most 80 words: under N
        same_length = same_length && key_words[g] == key_words[0];
    }
    // A game's round texts differ in one digit, so their keys have the same length: one
    // lockstep run. Otherwise (never in a game) each generator is mixed alone.
    if (same_length) {
        MIXERS[count - 1](generators, keys, key_words[0]);
    } else {
        for (int g = 0; g < count; g++) mix<1>(generators + g, keys + g, key_words[g]);
    }
    return true;
}

bool Random::set_state(const uint32_t* words, int64_t index) {
    if (index < 0 || index > N) return false;
    std::memcpy(mt_, words, sizeof mt_);
    index_ = static_cast<int>(index);
    twisted_ = N;
    return true;
}

void Random::get_state(uint32_t* words, int* index) {
    while (twisted_ < N) twist_word(twisted_++);
    std::memcpy(words, mt_, sizeof mt_);
    *index = index_;
}

void Random::twist_word(int k) {
    const int next = k + 1 < N ? k + 1 : 0;
    const uint32_t y = (mt_[k] & UPPER_MASK) | (mt_[next] & LOWER_MASK);
    const int far = k + M < N ? k + M : k + M - N;
    mt_[k] = mt_[far] ^ (y >> 1) ^ ((y & 1U) ? MATRIX_A : 0U);
}

uint32_t Random::next_word() {
    if (index_ >= N) {
        index_ = 0;
        twisted_ = 0;
    }
    if (index_ >= twisted_) twist_word(twisted_++);
    uint32_t y = mt_[index_++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

double Random::random() {
    const uint32_t a = next_word() >> 5, b = next_word() >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

uint64_t Random::getrandbits(int bits) {
    if (bits <= 0) return 0;
    if (bits <= 32) return next_word() >> (32 - bits);
    if (bits > 64) bits = 64;
    const uint64_t low = next_word();
    const uint64_t high = next_word() >> (64 - bits);
    return low | (high << 32);
}

// ---- SHA-512 (FIPS 180-4) ----
namespace {

constexpr uint64_t ROUND_CONSTANTS[80] = {
    0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL, 0xb5c0fbcfec4d3b2fULL, 0xe9b5dba58189dbbcULL,
    0x3956c25bf348b538ULL, 0x59f111f1b605d019ULL, 0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL,
    0xd807aa98a3030242ULL, 0x12835b0145706fbeULL, 0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL,
    0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL, 0x9bdc06a725c71235ULL, 0xc19bf174cf692694ULL,
    0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL, 0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL,
    0x2de92c6f592b0275ULL, 0x4a7484aa6ea6e483ULL, 0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL,
    0x983e5152ee66dfabULL, 0xa831c66d2db43210ULL, 0xb00327c898fb213fULL, 0xbf597fc7beef0ee4ULL,
    0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL, 0x06ca6351e003826fULL, 0x142929670a0e6e70ULL,
    0x27b70a8546d22ffcULL, 0x2e1b21385c26c926ULL, 0x4d2c6dfc5ac42aedULL, 0x53380d139d95b3dfULL,
    0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL, 0x81c2c92e47edaee6ULL, 0x92722c851482353bULL,
    0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL, 0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL,
    0xd192e819d6ef5218ULL, 0xd69906245565a910ULL, 0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL,
    0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL, 0x2748774cdf8eeb99ULL, 0x34b0bcb5e19b48a8ULL,
    0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL, 0x5b9cca4f7763e373ULL, 0x682e6ff3d6b2b8a3ULL,
    0x748f82ee5defb2fcULL, 0x78a5636f43172f60ULL, 0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
    0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL, 0xbef9a3f7b2c67915ULL, 0xc67178f2e372532bULL,
    0xca273eceea26619cULL, 0xd186b8c721c0c207ULL, 0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL,
    0x06f067aa72176fbaULL, 0x0a637dc5a2c898a6ULL, 0x113f9804bef90daeULL, 0x1b710b35131c471bULL,
    0x28db77f523047d84ULL, 0x32caab7b40c72493ULL, 0x3c9ebe0a15c9bebcULL, 0x431d67c49c100d4cULL,
    0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL, 0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL};

constexpr uint64_t rotr(uint64_t x, int n) { return (x >> n) | (x << (64 - n)); }

void compress(uint64_t h[8], const unsigned char* block) {
    uint64_t w[80];
    for (int i = 0; i < 16; i++) {
        uint64_t v = 0;
        for (int b = 0; b < 8; b++) v = (v << 8) | block[8 * i + b];
        w[i] = v;
    }
    for (int i = 16; i < 80; i++) {
        const uint64_t s0 = rotr(w[i - 15], 1) ^ rotr(w[i - 15], 8) ^ (w[i - 15] >> 7);
        const uint64_t s1 = rotr(w[i - 2], 19) ^ rotr(w[i - 2], 61) ^ (w[i - 2] >> 6);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint64_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
    for (int i = 0; i < 80; i++) {
        const uint64_t t1 = k + (rotr(e, 14) ^ rotr(e, 18) ^ rotr(e, 41)) + ((e & f) ^ (~e & g)) + ROUND_CONSTANTS[i] + w[i];
        const uint64_t t2 = (rotr(a, 28) ^ rotr(a, 34) ^ rotr(a, 39)) + ((a & b) ^ (a & c) ^ (b & c));
        k = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += k;
}

}  // namespace

void sha512(const unsigned char* message, size_t length, unsigned char digest[64]) {
    uint64_t h[8] = {0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
                     0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL, 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL};
    size_t done = 0;
    for (; done + 128 <= length; done += 128) compress(h, message + done);
    unsigned char tail[256] = {};
    const size_t rest = length - done;
    if (rest) std::memcpy(tail, message + done, rest);
    tail[rest] = 0x80;
    const size_t blocks = rest + 1 + 16 <= 128 ? 1 : 2;
    const uint64_t bits = static_cast<uint64_t>(length) * 8;  // < 2**64: the length's high word is 0
    for (int b = 0; b < 8; b++) tail[blocks * 128 - 1 - b] = static_cast<unsigned char>(bits >> (8 * b));
    for (size_t i = 0; i < blocks; i++) compress(h, tail + 128 * i);
    for (int k = 0; k < 8; k++)
        for (int b = 0; b < 8; b++) digest[8 * k + b] = static_cast<unsigned char>(h[k] >> (56 - 8 * b));
}

}  // namespace quadropolis
