/* WEBNN_EXPORT marks what libwebnn exports: the library is built with
 * -fvisibility=hidden, so everything else (the engine's internals) stays out of
 * its dynamic symbol table. Usable from C and C++. */
#ifndef WEBNN_EXPORT_H_
#define WEBNN_EXPORT_H_

#if defined(_WIN32)
#if defined(WEBNN_BUILDING_LIBRARY)
#define WEBNN_EXPORT __declspec(dllexport)
#else
#define WEBNN_EXPORT
#endif
#else
#define WEBNN_EXPORT __attribute__((visibility("default")))
#endif

#endif /* WEBNN_EXPORT_H_ */
