/* Black-Scholes European option pricing, one option per work-item (the SDK BlackScholes benchmark of
 * seed 000's Table 1). The cumulative normal distribution uses the Abramowitz-Stegun polynomial. */

static float cumulative_normal(float d)
{
    const float a1 = 0.31938153f;
    const float a2 = -0.356563782f;
    const float a3 = 1.781477937f;
    const float a4 = -1.821255978f;
    const float a5 = 1.330274429f;
    const float inv_sqrt_2pi = 0.39894228040143267794f;
    float k = 1.0f / (1.0f + 0.2316419f * fabs(d));
    float poly = k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5))));
    float tail = inv_sqrt_2pi * exp(-0.5f * d * d) * poly;
    return d > 0.0f ? 1.0f - tail : tail;
}

kernel void blackScholes(global float *call, global float *put, global const float *spot,
                         global const float *strike, global const float *years, float rate, float volatility)
{
    int i = get_global_id(0);
    float s = spot[i];
    float x = strike[i];
    float t = years[i];
    float sqrt_t = sqrt(t);
    float d1 = (log(s / x) + (rate + 0.5f * volatility * volatility) * t) / (volatility * sqrt_t);
    float d2 = d1 - volatility * sqrt_t;
    float discount = x * exp(-rate * t);
    float n1 = cumulative_normal(d1);
    float n2 = cumulative_normal(d2);
    call[i] = s * n1 - discount * n2;
    put[i] = discount * (1.0f - n2) - s * (1.0f - n1);
}
