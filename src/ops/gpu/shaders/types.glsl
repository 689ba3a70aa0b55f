// Data types of shader variants, chosen on the glslangValidator command line:
//   -DA_<T>  the first operand's type (and the output's unless -DO_<T>)
//   -DB_<T>  a second operand type, -DO_<T> the output type
// where <T> is F32, F16, I32, U32, I64, U64, I8 or U8. For each slot X this
// defines X_T (storage type), X_CT (compute type: float for both float types,
// int/uint for 8- and 32-bit integers, 64-bit integers as themselves) and one
// of X_FLOAT, X_SINT, X_UINT. Generated once; edit by hand.
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require

#if defined(A_F32)
#define A_T float
#define A_CT float
#define A_FLOAT 1
#elif defined(A_F16)
#define A_T float16_t
#define A_CT float
#define A_FLOAT 1
#elif defined(A_I32)
#define A_T int
#define A_CT int
#define A_SINT 1
#elif defined(A_U32)
#define A_T uint
#define A_CT uint
#define A_UINT 1
#elif defined(A_I64)
#define A_T int64_t
#define A_CT int64_t
#define A_SINT 1
#define A_64BIT 1
#elif defined(A_U64)
#define A_T uint64_t
#define A_CT uint64_t
#define A_UINT 1
#define A_64BIT 1
#elif defined(A_I8)
#define A_T int8_t
#define A_CT int
#define A_SINT 1
#elif defined(A_U8)
#define A_T uint8_t
#define A_CT uint
#define A_UINT 1
#endif

#if defined(B_F32)
#define B_T float
#define B_CT float
#define B_FLOAT 1
#elif defined(B_F16)
#define B_T float16_t
#define B_CT float
#define B_FLOAT 1
#elif defined(B_I32)
#define B_T int
#define B_CT int
#define B_SINT 1
#elif defined(B_U32)
#define B_T uint
#define B_CT uint
#define B_UINT 1
#elif defined(B_I64)
#define B_T int64_t
#define B_CT int64_t
#define B_SINT 1
#define B_64BIT 1
#elif defined(B_U64)
#define B_T uint64_t
#define B_CT uint64_t
#define B_UINT 1
#define B_64BIT 1
#elif defined(B_I8)
#define B_T int8_t
#define B_CT int
#define B_SINT 1
#elif defined(B_U8)
#define B_T uint8_t
#define B_CT uint
#define B_UINT 1
#endif

#if defined(O_F32)
#define O_T float
#define O_CT float
#define O_FLOAT 1
#elif defined(O_F16)
#define O_T float16_t
#define O_CT float
#define O_FLOAT 1
#elif defined(O_I32)
#define O_T int
#define O_CT int
#define O_SINT 1
#elif defined(O_U32)
#define O_T uint
#define O_CT uint
#define O_UINT 1
#elif defined(O_I64)
#define O_T int64_t
#define O_CT int64_t
#define O_SINT 1
#define O_64BIT 1
#elif defined(O_U64)
#define O_T uint64_t
#define O_CT uint64_t
#define O_UINT 1
#define O_64BIT 1
#elif defined(O_I8)
#define O_T int8_t
#define O_CT int
#define O_SINT 1
#elif defined(O_U8)
#define O_T uint8_t
#define O_CT uint
#define O_UINT 1
#else
#define O_T A_T
#define O_CT A_CT
#if defined(A_FLOAT)
#define O_FLOAT 1
#elif defined(A_SINT)
#define O_SINT 1
#else
#define O_UINT 1
#endif
#if defined(A_64BIT)
#define O_64BIT 1
#endif
#endif
