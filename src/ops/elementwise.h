// Attribute-free element-wise families: ElementwiseBinary (add ... pow),
// Comparison (equal ... lesserOrEqual), Logical (logicalNot ... isInfinite),
// ElementwiseUnary (abs ... tan), Prelu and Where use ops::NoAttrs.
#pragma once

#include "ops/schema.h"
