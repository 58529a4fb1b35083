// CPython's random.Random, bit for bit, as far as the engine uses it: MT19937 seeded from an
// int or (version 2) from a str, random(), getrandbits(k), and getstate()/setstate() of the
// generator's 624 words + index. Portable C++17, no allocation.
#pragma once
#include <cstddef>
#include <cstdint>

namespace quadropolis {

class Random {
public:
    static constexpr int WORDS = 624;  // MT19937's state: 624 words and an index 0..624

    // random.Random(n) for an int n with |n| = magnitude (Python seeds with abs(n)).
    void seed_int(uint64_t magnitude);
    void seed_signed(int64_t n);
    // random.Random(text) for a str given as its UTF-8 bytes (seeding version 2: the int whose
    // big-endian bytes are text + sha512(text)). Texts longer than MAX_TEXT bytes are refused.
    static constexpr size_t MAX_TEXT = 256;
    bool seed_text(const char* text, size_t length);
    // seed_text for `count` generators at once (at most MAX_BATCH): their init_by_array
    // chains run in lockstep, so the CPU overlaps them; each ends exactly as seed_text leaves
    // it. False (nothing seeded) if a text is too long or count is out of range.
    static constexpr int MAX_BATCH = 8;
    static bool seed_texts(Random* generators, const char* const* texts, const size_t* lengths, int count);
    // setstate((3, words + (index,), gauss)): false (state unchanged) if index is not 0..624.
    bool set_state(const uint32_t* words, int64_t index);
    // getstate()[1]: the 624 words and the index.
    void get_state(uint32_t* words, int* index);

    double random();                 // 53 random bits in [0, 1), as random.random()
    uint64_t getrandbits(int bits);  // 1 <= bits <= 64, as random.getrandbits
    uint32_t next_word();            // genrand_uint32

private:
    // The twist is lazy: word k of a new generation is computed when first drawn, in order,
    // which gives exactly the full twist's words (word k reads words k+1 and k+397 before
    // their own update, and word k-227 after it, in both schemes). A string-seeded round
    // layout draws ~48 words of 624, so most of the twist is never done.
    uint32_t mt_[WORDS];
    int index_ = WORDS;    // next word to hand out; WORDS: a new generation is due
    int twisted_ = WORDS;  // words of the current generation already twisted
    void init_by_array(const uint32_t* key, size_t length);
    // The words of a str seed's key: the text (at most MAX_TEXT bytes) and its SHA-512.
    static constexpr size_t KEY_WORDS = (MAX_TEXT + 64) / 4 + 1;
    template <int COUNT>
    static void mix(Random* generators, const uint32_t (*keys)[KEY_WORDS], size_t length);
    static size_t text_key(const char* text, size_t length, uint32_t* key);
    void twist_word(int k);
};

// SHA-512 of a message of at most Random::MAX_TEXT bytes (FIPS 180-4).
void sha512(const unsigned char* message, size_t length, unsigned char digest[64]);

}  // namespace quadropolis
