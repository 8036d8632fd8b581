package core

import "math"

// Glicko-2 (Mark E. Glickman, "Example of the Glicko-2 system", 2022):
// each player has a rating, a rating deviation (how uncertain the rating
// is) and a volatility (how erratic their results are). All matches of a
// rating period count as played at once, against the opponents' ratings
// at the period's start.

// Glicko-2 constants: a new player's rating, deviation and volatility,
// the system constant tau, and the Glicko-2 scale factor.
const (
	DefaultRating     = 1500.0
	DefaultDeviation  = 350.0
	DefaultVolatility = 0.06
	GlickoTau         = 0.5
	glickoScale       = 173.7178
	glickoEpsilon     = 0.000001
)

// Rating is a player's Glicko-2 rating on the Glicko scale.
type Rating struct {
	Rating     float64
	Deviation  float64
	Volatility float64
}

// NewRating is an unrated player's rating.
func NewRating() Rating {
	return Rating{Rating: DefaultRating, Deviation: DefaultDeviation, Volatility: DefaultVolatility}
}

// GlickoResult is one match of a rating period: the opponent's rating at
// the period's start and the score (1 a win, 0 a loss).
type GlickoResult struct {
	Opponent Rating
	Score    float64
}

// glickoStep holds the paper's intermediate quantities (steps 2 to 6).
type glickoStep struct {
	mu, phi       float64 // step 2
	v, delta      float64 // steps 3 and 4
	sigma         float64 // step 5
	phiStar       float64 // step 6
	newMu, newPhi float64 // step 7
}

// GlickoUpdate rates one player over a rating period with the system
// constant tau (GlickoTau unless testing): steps 2 to 8 of Glickman's
// paper. A player without results only grows uncertain (step 6 alone).
func GlickoUpdate(r Rating, results []GlickoResult, tau float64) Rating {
	s := glickoSteps(r, results, tau)
	return Rating{Rating: glickoScale*s.newMu + DefaultRating, Deviation: glickoScale * s.newPhi, Volatility: s.sigma}
}

func glickoSteps(r Rating, results []GlickoResult, tau float64) glickoStep {
	s := glickoStep{mu: (r.Rating - DefaultRating) / glickoScale, phi: r.Deviation / glickoScale, sigma: r.Volatility}
	if len(results) == 0 {
		s.phiStar = math.Sqrt(s.phi*s.phi + s.sigma*s.sigma)
		s.newMu, s.newPhi = s.mu, s.phiStar
		return s
	}
	var vInv, sum float64
	for _, res := range results {
		g, e := glickoGE(s.mu, res.Opponent)
		vInv += g * g * e * (1 - e)
		sum += g * (res.Score - e)
	}
	s.v = 1 / vInv
	s.delta = s.v * sum
	s.sigma = glickoVolatility(s.phi, s.v, s.delta, r.Volatility, tau)
	s.phiStar = math.Sqrt(s.phi*s.phi + s.sigma*s.sigma)
	s.newPhi = 1 / math.Sqrt(1/(s.phiStar*s.phiStar)+1/s.v)
	s.newMu = s.mu + s.newPhi*s.newPhi*sum
	return s
}

// glickoGE are step 3's g(phi_j) and E(mu, mu_j, phi_j) for an opponent.
func glickoGE(mu float64, opponent Rating) (g, e float64) {
	muJ := (opponent.Rating - DefaultRating) / glickoScale
	phiJ := opponent.Deviation / glickoScale
	g = 1 / math.Sqrt(1+3*phiJ*phiJ/(math.Pi*math.Pi))
	return g, 1 / (1 + math.Exp(-g*(mu-muJ)))
}

// glickoVolatility is step 5: the new volatility, found by the Illinois
// algorithm to within glickoEpsilon.
func glickoVolatility(phi, v, delta, sigma, tau float64) float64 {
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(tau*tau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for math.Abs(B-A) > glickoEpsilon {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}

// Idle returns the rating after periods rating periods without a match:
// the deviation grows as step 6 has it for each (never beyond
// DefaultDeviation); rating and volatility stay.
func (r Rating) Idle(periods int) Rating {
	if periods <= 0 {
		return r
	}
	phi := r.Deviation / glickoScale
	phi = math.Sqrt(phi*phi + float64(periods)*r.Volatility*r.Volatility)
	r.Deviation = math.Min(glickoScale*phi, DefaultDeviation)
	return r
}

// Rounded is the rating as the API and the pages show it: rating and
// deviation to 2 decimals, volatility to 6.
func (r Rating) Rounded() Rating {
	round := func(x float64, places float64) float64 {
		p := math.Pow(10, places)
		return math.Round(x*p) / p
	}
	return Rating{Rating: round(r.Rating, 2), Deviation: round(r.Deviation, 2), Volatility: round(r.Volatility, 6)}
}
